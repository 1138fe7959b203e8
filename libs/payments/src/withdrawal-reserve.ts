import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable, queryRows } from '@app/database';

/** The part of an agent's available balance it cannot withdraw yet, and when each part frees. */
export interface Reserve {
  /** min(available, earnings released to available whose transactions are still inside their filing window). */
  reserved: bigint;
  /** When all of it is free (null: nothing reserved). */
  reservedUntil: Date | null;
  /** Whether the agent has an established record (then nothing is reserved). */
  established: boolean;
  /** When the reserve frees enough for a withdrawal of `amount` (null: nothing reserved, or never within the window). */
  freeFor(amount: bigint): Date | null;
}

const NONE: Reserve = { reserved: 0n, reservedUntil: null, established: true, freeFor: () => null };

/**
 * The rolling reserve (resolutions §6, WITHDRAWAL_RESERVE): an agent without an established record
 * (RESERVE_MIN_EXECUTIONS charged executions by payers other than its own wallet, from
 * RESERVE_MIN_PAYERS distinct such payers, the first RESERVE_MIN_AGE_S ago) cannot withdraw the
 * earnings of transactions still inside their dispute filing window. A dispute can then always
 * freeze them, so what a payer wins back was never paid out to a new agent's wallet.
 */
@Injectable()
export class WithdrawalReserve {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The reserve on `available` (read under the caller's lock of the available account when it withdraws). */
  async of(agentId: string, available: bigint, sql: Queryable = this.dataSource): Promise<Reserve> {
    if (!this.config.withdrawalReserve || available <= 0n) return NONE;
    const now = this.clock.nowMs();
    const [record] = await queryRows<{ n: number; payers: number; first: Date | null }>(
      sql,
      `SELECT count(*)::int AS n, count(DISTINCT lower(t.payer_wallet))::int AS payers, min(coalesce(t.completed_at, t.created_at)) AS first
         FROM transactions t WHERE t.providing_agent_id = $1 AND lower(t.payer_wallet) <> (SELECT lower(wallet) FROM agents WHERE id = $1)`,
      [agentId],
    );
    const c = this.config;
    const since = record.first ? now - new Date(record.first).getTime() : 0;
    if (record.n >= c.reserveMinExecutions && record.payers >= c.reserveMinPayers && since >= c.reserveMinAgeS * 1000) return NONE;
    const recent = await queryRows<{ amount: string; freesAt: Date }>(
      sql,
      `SELECT t.agent_earnings::text AS amount, coalesce(t.completed_at, t.created_at) + make_interval(secs => $3) AS "freesAt"
         FROM transactions t JOIN escrow_holds h ON h.transaction_id = t.id AND h.status = 'released'
        WHERE t.providing_agent_id = $1 AND t.status = 'completed' AND t.agent_earnings > 0 AND coalesce(t.completed_at, t.created_at) > $2
        ORDER BY 2`,
      [agentId, new Date(now - c.disputeFilingWindowS * 1000), c.disputeFilingWindowS],
    );
    const parts = recent.map((r) => ({ amount: BigInt(r.amount), freesAt: new Date(r.freesAt) }));
    const total = parts.reduce((s, p) => s + p.amount, 0n);
    const reserved = total < available ? total : available;
    if (reserved === 0n) return { ...NONE, established: false };
    return {
      reserved,
      reservedUntil: parts[parts.length - 1].freesAt,
      established: false,
      freeFor(amount: bigint): Date | null {
        let left = total;
        for (const p of parts) {
          left -= p.amount;
          if (available - (left < available ? left : available) >= amount) return p.freesAt;
        }
        return null;
      },
    };
  }
}
