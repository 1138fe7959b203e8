import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { PayoutRow, PayoutStatus } from './payout-row';

export type RefundStatus = PayoutStatus;

/**
 * A refund (`rfd_`): captured money going back to the payer, e.g. the unused part of a
 * variable-price execution. The amount is owed in `client:<wallet>:refund_payable` from the
 * transaction that creates the row until the worker's transfer completes. One below the dust floor
 * is `held` until a later refund to the same wallet carries it; a `failed` one (the transfer
 * reverted) stays owed there and is sent again at `retry_at`, or when an admin re-drives it.
 */
@Entity('refunds')
@Check('ck_refunds_status', `"status" IN ('held', 'pending', 'processing', 'completed', 'failed')`)
@Check('ck_refunds_amount', `"amount" > 0`)
@Index('ix_refunds_status_created', ['status', 'createdAt'])
@Index('ux_refunds_execution', ['executionId'], { unique: true })
@Index('ix_refunds_held_wallet', ['wallet'], { where: `"status" = 'held' AND "carried_by" IS NULL` })
@Index('ix_refunds_carried_by', ['carriedBy'], { where: `"carried_by" IS NOT NULL` })
@Index('ix_refunds_failed_retry', ['retryAt'], { where: `"status" = 'failed'` })
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

  /** A `held` refund (below the dust floor): the refund whose transfer carries it, once one does. */
  @Column({ name: 'carried_by', type: 'varchar', length: 40, nullable: true })
  carriedBy: string | null;

  /** What the transfer sends: this refund's amount plus the held ones it carries (null: the amount). */
  @Column({ name: 'payout_amount', type: 'bigint', nullable: true, transformer: bigintTransformer })
  payoutAmount: bigint | null;

  /** A `failed` refund: when the worker sends it again (backoff after a reverted or unsignable transfer). */
  @Column({ name: 'retry_at', type: 'timestamptz', nullable: true })
  retryAt: Date | null;
}
