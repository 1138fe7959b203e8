import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { PayoutRow, PayoutStatus } from './payout-row';

export type WithdrawalStatus = PayoutStatus;

/**
 * A withdrawal (`wd_`). The amount is reserved (available -> withdrawing) in the transaction
 * that creates the row; the worker claims the row, sends `net_amount`, and posts completion or
 * returns the amount. In evm mode the signed transfer is stored before it is broadcast.
 */
@Entity('withdrawals')
@Check('ck_withdrawals_status', `"status" IN ('pending', 'processing', 'completed', 'failed')`)
@Check('ck_withdrawals_amounts', `"amount" >= 1000000 AND "fee" >= 0 AND "net_amount" = "amount" - "fee"`)
@Index('ix_withdrawals_agent_created', ['agentId', 'createdAt'])
@Index('ix_withdrawals_status_next', ['status', 'nextAttemptAt'])
export class WithdrawalEntity extends PayoutRow {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_withdrawals' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: bigint;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  fee: bigint;

  @Column({ name: 'net_amount', type: 'bigint', transformer: bigintTransformer })
  netAmount: bigint;

  @Column({ name: 'destination_wallet', type: 'varchar', length: 42 })
  destinationWallet: string;

  /** When the worker may try again after a transient failure. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;
}
