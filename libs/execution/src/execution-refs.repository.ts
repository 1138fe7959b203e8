import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '@app/database';
import { ExecutionEntity } from './entities/execution.entity';

/** An execution as the payment status names it: its id (the request id), its run and its settlement. */
export type ExecutionRef = Pick<ExecutionEntity, 'id' | 'status' | 'settlementStatus'> & { paymentId: string };

/**
 * Executions found by what paid them, for the public payment status (`GetPaymentStatus`): the
 * reads on `executions` and `idempotency_keys` that span payers. Every other statement on those
 * tables is ExecutionsRepository's.
 */
@Injectable()
export class ExecutionRefsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The payments of the executions a payment identifier (an idempotency key in force) stands for, whoever's: newest first. */
  async paymentsOfKey(key: string, now: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ paymentId: string }>(
      this.dataSource.manager,
      `SELECT e.payment_id AS "paymentId" FROM idempotency_keys k JOIN executions e ON e.id = k.execution_id
        WHERE k.key = $1 AND k.expires_at > $2 AND e.payment_id IS NOT NULL ORDER BY k.created_at DESC LIMIT $3`,
      [key, now, limit],
    );
    return rows.map((r) => r.paymentId);
  }

  /** The executions these payments paid for (ux_executions_payment). */
  async byPayments(paymentIds: string[]): Promise<ExecutionRef[]> {
    if (paymentIds.length === 0) return [];
    return queryRows<ExecutionRef>(
      this.dataSource.manager,
      `SELECT id, payment_id AS "paymentId", status, settlement_status AS "settlementStatus" FROM executions WHERE payment_id = ANY($1::varchar[])`,
      [paymentIds],
    );
  }
}
