import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';
import { PaymentEntity } from '../entities/payment.entity';

/** The statements on `payments` that the recovery of registration fees makes (the payment's other rows are PaymentsRepository's). */
@Injectable()
export class RegistrationPaymentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Undecided past their lease or retry time (`now`), or settled with no agent since before `settledBefore`. */
  async due(now: Date, settledBefore: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `(SELECT id FROM payments WHERE status IN ('settlement_failed', 'settling') AND purpose = 'registration' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3)
       UNION ALL
       (SELECT id FROM payments WHERE status = 'settled' AND ref_id IS NULL AND purpose = 'registration' AND settled_at <= $2 ORDER BY settled_at LIMIT $3)`,
      [now, settledBefore, limit],
    );
    return rows.map((r) => r.id);
  }

  findById(id: string): Promise<PaymentEntity | null> {
    return this.dataSource.manager.findOne(PaymentEntity, { where: { id } });
  }

  /** An authorization that expired unused: released (only from `status`). */
  async release(id: string, status: string): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET status = 'released' WHERE id = $1 AND status = $2`, [id, status]);
  }

  /** Checked again at `at` (only from `status`). */
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
            WHERE id = $1 AND status IN ('settlement_failed', 'settling') AND ref_id IS NULL RETURNING id`
        : `UPDATE payments SET ref_id = $2 WHERE id = $1 AND status = 'settled' AND ref_id IS NULL RETURNING id`,
      txHash ? [id, refundId, txHash] : [id, refundId],
    );
    return claimed.length > 0;
  }
}
