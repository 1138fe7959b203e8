import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INITIAL_REPUTATION } from '@app/reputation';
import { Queryable, queryRows } from '@app/database';
import { EscrowHoldEntity } from '../entities/escrow-hold.entity';
import { TransactionEntity } from '../entities/transaction.entity';

/** How long a hold lasts by the agent's score (seconds for Standard, At Risk, Critical; 60+ is instant). */
export interface HoldSeconds {
  standard: number;
  atRisk: number;
  critical: number;
}

/** Every statement on `escrow_holds` (and the charge's `transactions` row, written with its hold). */
@Injectable()
export class EscrowHoldsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One statement: the charge's transaction row and its hold, whose length is set by the agent's tier
   * (common's reputationTier: 60+ instant, 40+ Standard, 20+ At Risk, else Critical) from `reputation`,
   * else the agent's score read here. Answers the hold's release time.
   */
  async insertCharge(
    sql: Queryable,
    t: TransactionEntity,
    hold: EscrowHoldEntity,
    seconds: HoldSeconds,
    reputation: number | null,
  ): Promise<Date> {
    const [held] = await queryRows<{ releaseAt: Date }>(
      sql,
      `WITH t AS (
         INSERT INTO transactions (id, requesting_agent, payer_wallet, providing_agent_id, capability_id, gross_amount, platform_fee, agent_fee,
                                   platform_cut, agent_earnings, status, execution_time_ms, payment_id, escrow_id, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'completed', $11, $12, $13, $14))
       INSERT INTO escrow_holds (id, transaction_id, agent_id, amount, status, release_at)
       SELECT $13, $1, $4, $10, 'held', $14::timestamptz + make_interval(secs => CASE WHEN s >= 60 THEN 0 WHEN s >= 40 THEN $15 WHEN s >= 20 THEN $16 ELSE $17 END)
         FROM (SELECT coalesce($18::int, (SELECT reputation_score FROM agents WHERE id = $4), ${INITIAL_REPUTATION}) AS s) score
       RETURNING release_at AS "releaseAt"`,
      [
        t.id,
        t.requestingAgent,
        t.payerWallet,
        t.providingAgentId,
        t.capabilityId,
        t.grossAmount.toString(),
        t.platformFee.toString(),
        t.agentFee.toString(),
        t.platformCut.toString(),
        t.agentEarnings.toString(),
        t.executionTimeMs,
        t.paymentId,
        hold.id,
        t.completedAt,
        seconds.standard,
        seconds.atRisk,
        seconds.critical,
        reputation,
      ],
    );
    return new Date(held.releaseAt);
  }

  /** Inside the caller's transaction: the hold, if it is held and due by `now`, locked (a hold another release has locked is skipped). */
  async claimDue(sql: Queryable, id: string, now: Date): Promise<EscrowHoldEntity | null> {
    const [hold] = await queryRows<EscrowHoldEntity & { amount: string }>(
      sql,
      `SELECT id, agent_id AS "agentId", transaction_id AS "transactionId", amount, status, release_at AS "releaseAt"
         FROM escrow_holds WHERE id = $1 AND status = 'held' AND release_at <= $2 FOR UPDATE SKIP LOCKED`,
      [id, now],
    );
    return hold ? ({ ...hold, amount: BigInt(hold.amount) } as EscrowHoldEntity) : null;
  }

  async markReleased(sql: Queryable, id: string, now: Date): Promise<void> {
    await sql.query(`UPDATE escrow_holds SET status = 'released', released_at = $2 WHERE id = $1 AND status = 'held'`, [
      id,
      now,
    ]);
  }

  /** Held escrows due for release by `now`, oldest due first. */
  due(now: Date, limit: number): Promise<{ id: string; releaseAt: Date }[]> {
    return queryRows(
      this.dataSource.manager,
      `SELECT id, release_at AS "releaseAt" FROM escrow_holds WHERE status = 'held' AND release_at <= $1 ORDER BY release_at LIMIT $2`,
      [now, limit],
    );
  }

  /** The hold of a transaction, locked (waits for a release of it in flight). */
  async lockOfTransaction(sql: Queryable, transactionId: string): Promise<{ id: string; status: string } | null> {
    const [hold] = await queryRows<{ id: string; status: string }>(
      sql,
      `SELECT id, status FROM escrow_holds WHERE transaction_id = $1 FOR UPDATE`,
      [transactionId],
    );
    return hold ?? null;
  }

  async freeze(sql: Queryable, id: string): Promise<void> {
    await sql.query(`UPDATE escrow_holds SET status = 'frozen' WHERE id = $1`, [id]);
  }
}
