import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';
import { RefundEntity } from '../entities/refund.entity';
import { Unfinished } from '@app/onchain';

/**
 * A failed refund made pending again. Its last transfer is final (it reverted, or none was signed),
 * so the row forgets it and the sender signs a new one; its attempts keep counting (the backoff grows).
 */
const REDRIVE = `status = 'pending', retry_at = NULL, chain_tx_id = NULL, tx_hash = NULL, signed_tx = NULL, claim_token = NULL`;

/** A refund's row as written (the caller's id and reason). */
export interface RefundRow {
  id: string;
  /** Lower-case. */
  wallet: string;
  amount: bigint;
  reason: string;
  executionId: string | null;
  transactionId: string | null;
}

/** A refund paid by a transfer (the one sent, or a held one it carried). */
export interface PaidRefund {
  id: string;
  wallet: string;
  amount: bigint;
}

/** Every statement on `refunds`. */
/** The refunds due and not sent (a held one is not due). */
const UNSENT = ['pending', 'processing', 'failed'] as const;

@Injectable()
export class RefundsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One statement (pipeline- and oneTrip-safe): `sendable`, the row is `pending` and carries the
   * wallet's held refunds in its transfer (`payout_amount`); else it is `held`.
   */
  async insert(sql: Queryable, r: RefundRow, sendable: boolean): Promise<void> {
    await sql.query(
      `WITH carried AS (
         UPDATE refunds SET carried_by = $1 WHERE $7::boolean AND wallet = $2 AND status = 'held' AND carried_by IS NULL RETURNING amount)
       INSERT INTO refunds (id, wallet, amount, reason, execution_id, transaction_id, status, payout_amount)
       SELECT $1, $2, $3, $4, $5, $6, CASE WHEN $7::boolean THEN 'pending' ELSE 'held' END,
              CASE WHEN $7::boolean THEN $3::bigint + coalesce((SELECT sum(amount) FROM carried), 0) END`,
      [r.id, r.wallet, r.amount.toString(), r.reason, r.executionId, r.transactionId, sendable],
    );
  }

  findById(id: string): Promise<RefundEntity | null> {
    return this.dataSource.manager.findOne(RefundEntity, { where: { id } });
  }

  /** A claimed transfer that failed: still owed, sent again at retry_at (`baseMs` doubling per attempt, at most `maxMs`). */
  async markFailed(
    id: string,
    claimToken: string,
    error: string,
    now: Date,
    backoff: { baseMs: number; maxMs: number },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE refunds SET status = 'failed', error = $2, locked_until = NULL,
              retry_at = $4::timestamptz + make_interval(secs => least($5::bigint * power(2, greatest(attempts - 1, 0)), $6::bigint) / 1000.0)
        WHERE id = $1 AND status = 'processing' AND claim_token = $3`,
      [id, error, claimToken, now, backoff.baseMs, backoff.maxMs],
    );
  }

  /**
   * Inside the caller's transaction: completes the refund while `claimToken` holds it, and the held
   * refunds its transfer carried. Answers every refund the transfer paid (empty: the claim was lost).
   */
  async complete(sql: Queryable, id: string, claimToken: string, txHash: string, now: Date): Promise<PaidRefund[]> {
    const [r] = await queryRows<{ wallet: string; amount: string }>(
      sql,
      `UPDATE refunds SET status = 'completed', tx_hash = $2, completed_at = $3, locked_until = NULL
        WHERE id = $1 AND status = 'processing' AND claim_token = $4 RETURNING wallet, amount`,
      [id, txHash, now, claimToken],
    );
    if (!r) return [];
    const carried = await queryRows<{ id: string; wallet: string; amount: string }>(
      sql,
      `UPDATE refunds SET status = 'completed', tx_hash = $2, completed_at = $3 WHERE carried_by = $1 AND status = 'held' RETURNING id, wallet, amount`,
      [id, txHash, now],
    );
    return [{ id, ...r }, ...carried].map((p) => ({ id: p.id, wallet: p.wallet, amount: BigInt(p.amount) }));
  }

  /** Failed refunds whose retry time has come made pending again (at most `limit`). */
  async redriveDue(now: Date, limit: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE refunds SET ${REDRIVE} WHERE id IN (SELECT id FROM refunds WHERE status = 'failed' AND retry_at <= $1 ORDER BY retry_at LIMIT $2)`,
      [now, limit],
    );
  }

  /** A failed refund pending again, or a held one not carried yet sent alone. Answers whether it was either. */
  async redrive(id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE refunds SET ${REDRIVE}, payout_amount = CASE WHEN status = 'held' THEN amount ELSE payout_amount END
        WHERE id = $1 AND (status = 'failed' OR (status = 'held' AND carried_by IS NULL)) RETURNING id`,
      [id],
    );
    return rows.length > 0;
  }
  /**
   * Refunds due and not sent yet (pending, processing, failed), oldest first, each status read in
   * order through `ix_refunds_status_created`, with their total counted up to 10,001. A `held`
   * refund is not due: it waits below the dust floor for the payer's next refund, so it is left out.
   */
  async oldestUnfinished(limit: number): Promise<Unfinished> {
    const per = (status: string, n: number) =>
      `(SELECT id, amount::text AS amount, status, created_at AS "createdAt", error FROM refunds
         WHERE status = '${status}' ORDER BY created_at, id LIMIT ${n})`;
    const [rows, [{ total }]] = await Promise.all([
      queryRows<{ id: string; amount: string; status: string; createdAt: Date; error: string | null }>(
        this.dataSource.manager,
        `SELECT * FROM (${UNSENT.map((st) => per(st, 100)).join(' UNION ALL ')}) u ORDER BY "createdAt", id LIMIT $1`,
        [limit],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM (SELECT 1 FROM refunds WHERE status IN ('pending', 'processing', 'failed')
          LIMIT 10001) due`,
      ),
    ]);
    return { rows: rows.map((r) => ({ ...r, amount: BigInt(r.amount) })), total };
  }
}
