import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';

/**
 * The `payments` rows of registration fees the worker recovers (RecoverRegistrationPayment): a fee whose
 * agent was never created is released, watched again, or claimed for its refund. Every other write of the
 * table is PaymentsRepository's.
 */
@Injectable()
export class RegistrationPaymentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A registration fee whose authorization expired unused: released (only from `status`). */
  async releaseFrom(id: string, status: string): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET status = 'released' WHERE id = $1 AND status = $2`, [id, status]);
  }

  /** A registration fee checked again at `at` (only from `status`). */
  async retryAt(id: string, status: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE payments SET status = 'settlement_failed', next_attempt_at = $3 WHERE id = $1 AND status = $2`,
      [id, status, at],
    );
  }

  /**
   * Inside the caller's transaction: claims the payment for its refund, once (`ref_id` takes the
   * refund's id), recording it settled with `txHash` when it was not yet. Answers whether it claimed it.
   */
  async claimForRefund(sql: Queryable, id: string, refundId: string, txHash: string | null): Promise<boolean> {
    const claimed = await queryRows<{ id: string }>(
      sql,
      txHash
        ? `UPDATE payments SET status = 'settled', tx_hash = $3, settled_at = now(), next_attempt_at = NULL, last_error = NULL, ref_id = $2
            WHERE id = $1 AND status IN ('reserved', 'settlement_failed', 'settling') AND ref_id IS NULL RETURNING id`
        : `UPDATE payments SET ref_id = $2 WHERE id = $1 AND status = 'settled' AND ref_id IS NULL RETURNING id`,
      txHash ? [id, refundId, txHash] : [id, refundId],
    );
    return claimed.length > 0;
  }
}
