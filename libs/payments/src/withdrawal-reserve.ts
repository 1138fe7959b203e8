import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable, queryRows } from '@app/database';

/** The part of an agent's available balance it cannot withdraw yet. */
export interface Reserve {
  /** min(available, earnings released to available whose transactions are still inside their filing window). */
  reserved: bigint;
  /** When all of it is free (null: nothing reserved). */
  reservedUntil: Date | null;
  /** When enough of it frees for a withdrawal of `amount` out of `available` (null: nothing reserved). */
  freeFor(amount: bigint): Promise<Date | null>;
}

const NONE: Reserve = { reserved: 0n, reservedUntil: null, freeFor: () => Promise.resolve(null) };
/** How many of an agent's charges the established-record check reads at most (a busy agent is read in bounded work). */
const RECORD_SCAN = 10_000;

/**
 * The rolling reserve (resolutions §6, WITHDRAWAL_RESERVE): an agent without an established record
 * (RESERVE_MIN_EXECUTIONS charged executions by payers other than its own wallet, from
 * RESERVE_MIN_PAYERS distinct such payers, the first RESERVE_MIN_AGE_S ago) cannot withdraw the
 * earnings of transactions still inside their dispute filing window. A dispute can then always
 * freeze them, so what a payer wins back was never paid out to a new agent's wallet. Every read is
 * bounded (the balance is a public read): the record looks at the agent's oldest RECORD_SCAN charges.
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
    if (!this.config.withdrawalReserve || available <= 0n || (await this.established(agentId, sql))) return NONE;
    const since = new Date(this.clock.nowMs() - this.config.disputeFilingWindowS * 1000);
    const params = [agentId, since, this.config.disputeFilingWindowS];
    const [row] = await queryRows<{ total: string; until: Date | null }>(
      sql,
      `SELECT coalesce(sum(amount), 0)::text AS total, max(frees_at) AS until FROM (${INSIDE_WINDOW}) r`,
      params,
    );
    const total = BigInt(row.total);
    const reserved = total < available ? total : available;
    if (reserved === 0n) return NONE;
    return {
      reserved,
      reservedUntil: new Date(row.until!),
      // The first moment the earnings still reserved then leave `amount` withdrawable (available kept as it is now).
      freeFor: async (amount) => {
        const [at] = await queryRows<{ at: Date }>(
          sql,
          `SELECT frees_at AS at FROM (SELECT frees_at, $4::bigint - sum(amount) OVER (ORDER BY frees_at, id) AS still FROM (${INSIDE_WINDOW}) r) c
            WHERE $5::bigint - least(still, $5::bigint) >= $6::bigint ORDER BY frees_at LIMIT 1`,
          [...params, total.toString(), available.toString(), amount.toString()],
        );
        return at ? new Date(at.at) : null;
      },
    };
  }

  private async established(agentId: string, sql: Queryable): Promise<boolean> {
    const c = this.config;
    const [record] = await queryRows<{ n: number; payers: number; first: Date | null }>(
      sql,
      `SELECT count(*)::int AS n, count(DISTINCT payer)::int AS payers, min(at) AS first FROM (
         SELECT lower(t.payer_wallet) AS payer, t.created_at AS at FROM transactions t
          WHERE t.providing_agent_id = $1 AND lower(t.payer_wallet) <> (SELECT lower(wallet) FROM agents WHERE id = $1)
          ORDER BY t.created_at LIMIT $2) oldest`,
      [agentId, RECORD_SCAN],
    );
    const age = record.first ? this.clock.nowMs() - new Date(record.first).getTime() : 0;
    return record.n >= c.reserveMinExecutions && record.payers >= c.reserveMinPayers && age >= c.reserveMinAgeS * 1000;
  }
}

/** The agent's earnings released to available whose transactions can still be disputed ($1 agent, $2 window start, $3 window seconds). */
const INSIDE_WINDOW = `SELECT t.id, t.agent_earnings AS amount, coalesce(t.completed_at, t.created_at) + make_interval(secs => $3) AS frees_at
  FROM transactions t JOIN escrow_holds h ON h.transaction_id = t.id AND h.status = 'released'
 WHERE t.providing_agent_id = $1 AND t.status = 'completed' AND t.agent_earnings > 0 AND coalesce(t.completed_at, t.created_at) > $2`;
