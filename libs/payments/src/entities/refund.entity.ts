import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { PayoutRow, PayoutStatus } from './payout-row';

export type RefundStatus = PayoutStatus;

/**
 * A refund (`rfd_`): captured money going back to the payer, e.g. the unused part of a
 * variable-price execution. The amount is owed in `client:<wallet>:refund_payable` from the
 * transaction that creates the row until the worker's transfer completes. A `failed` refund
 * (the transfer reverted) stays owed there for an operator.
 */
@Entity('refunds')
@Check('ck_refunds_status', `"status" IN ('pending', 'processing', 'completed', 'failed')`)
@Check('ck_refunds_amount', `"amount" > 0`)
@Index('ix_refunds_status_created', ['status', 'createdAt'])
@Index('ux_refunds_execution', ['executionId'], { unique: true })
export class RefundEntity extends PayoutRow {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_refunds' })
  id: string;

  /** Lower-case payer wallet: where the money goes. */
  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: bigint;

  /** Why: `variable_price_unused`. */
  @Column({ type: 'varchar', length: 32 })
  reason: string;

  @Column({ name: 'execution_id', type: 'varchar', length: 40, nullable: true })
  executionId: string | null;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40, nullable: true })
  transactionId: string | null;
}
