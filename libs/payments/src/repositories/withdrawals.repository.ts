import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { WithdrawalEntity } from '../entities/withdrawal.entity';
import { Unfinished } from '@app/onchain';

export interface WithdrawalSummary {
  totalCount: number;
  totalWithdrawn: bigint;
  pendingAmount: bigint;
}

/** A withdrawal's money as a transition answers it. */
export interface WithdrawalMoney {
  id: string;
  agentId: string;
  amount: bigint;
  fee: bigint;
  netAmount: bigint;
  destinationWallet: string;
}

/** Every statement on `withdrawals`. */
@Injectable()
export class WithdrawalsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    sql: Queryable,
    w: { id: string; agentId: string; amount: bigint; fee: bigint; destinationWallet: string; now: Date },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO withdrawals (id, agent_id, amount, fee, net_amount, destination_wallet, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)`,
      [
        w.id,
        w.agentId,
        w.amount.toString(),
        w.fee.toString(),
        (w.amount - w.fee).toString(),
        w.destinationWallet,
        w.now,
      ],
    );
  }

  /**
   * The agent's status, share-locked: a suspension committing meanwhile waits for the caller's
   * transaction, or the caller sees it (taken last, as a charge takes the agent's row after its accounts).
   */
  async agentStatusForShare(
    sql: Queryable,
    agentId: string,
  ): Promise<{ status: string; suspendedBy: string | null } | null> {
    const [agent] = await queryRows<{ status: string; suspendedBy: string | null }>(
      sql,
      `SELECT status, suspended_by AS "suspendedBy" FROM agents WHERE id = $1 FOR SHARE`,
      [agentId],
    );
    return agent ?? null;
  }

  /** One withdrawal; with `manager`, as the caller's transaction sees it. */
  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<WithdrawalEntity | null> {
    return manager.findOne(WithdrawalEntity, { where: { id } });
  }

  list(agentId: string, page: Page): Promise<WithdrawalEntity[]> {
    return this.dataSource.manager.find(WithdrawalEntity, {
      where: { agentId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
  }

  async summary(agentId: string): Promise<WithdrawalSummary> {
    const [s] = await queryRows<{ totalCount: number; totalWithdrawn: string; pendingAmount: string }>(
      this.dataSource.manager,
      `SELECT count(*)::int AS "totalCount",
              coalesce(sum(amount) FILTER (WHERE status = 'completed'), 0)::text AS "totalWithdrawn",
              coalesce(sum(amount) FILTER (WHERE status IN ('pending', 'processing')), 0)::text AS "pendingAmount"
         FROM withdrawals WHERE agent_id = $1`,
      [agentId],
    );
    return {
      totalCount: s.totalCount,
      totalWithdrawn: BigInt(s.totalWithdrawn),
      pendingAmount: BigInt(s.pendingAmount),
    };
  }

  /**
   * Moves a withdrawal in one of `from` to `to` (with a claim token, only while that claim holds it;
   * without one, only a row no sender has claimed). Answers its money (none: it was not there).
   */
  async transition(
    sql: Queryable,
    id: string,
    from: string[],
    to: 'completed' | 'failed',
    now: Date,
    extra: { txHash?: string; error?: string; claimToken?: string },
  ): Promise<WithdrawalMoney | null> {
    const [r] = await queryRows<Record<string, string>>(
      sql,
      `UPDATE withdrawals SET status = $3::varchar, completed_at = CASE WHEN $3::varchar = 'completed' THEN $4::timestamptz ELSE completed_at END,
              tx_hash = coalesce($5, tx_hash), error = coalesce($6, error), locked_until = NULL
        WHERE id = $1 AND status = ANY($2::text[]) AND (($7::varchar IS NULL AND claim_token IS NULL) OR claim_token = $7)
        RETURNING id, agent_id AS "agentId", amount, fee, net_amount AS "netAmount", destination_wallet AS "destinationWallet", tx_hash AS "txHash"`,
      [id, from, to, now, extra.txHash ?? null, extra.error ?? null, extra.claimToken ?? null],
    );
    if (!r) return null;
    return {
      id: r.id,
      agentId: r.agentId,
      destinationWallet: r.destinationWallet,
      amount: BigInt(r.amount),
      fee: BigInt(r.fee),
      netAmount: BigInt(r.netAmount),
    };
  }
  /** Withdrawals not sent yet (pending, processing), oldest first (ix_withdrawals_status_next), with their total. */
  async oldestUnfinished(limit: number): Promise<Unfinished> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<{ id: string; amount: string; status: string; createdAt: Date; error: string | null }>(
        this.dataSource.manager,
        `SELECT id, amount::text AS amount, status, created_at AS "createdAt", error AS error FROM withdrawals
          WHERE status IN ('pending', 'processing') ORDER BY created_at, id LIMIT $1`,
        [limit],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM withdrawals WHERE status IN ('pending', 'processing')`,
      ),
    ]);
    return { rows: rows.map((r) => ({ ...r, amount: BigInt(r.amount) })), total };
  }
}
