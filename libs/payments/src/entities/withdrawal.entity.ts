import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

export type WithdrawalStatus = 'pending' | 'processing' | 'completed' | 'failed';

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
export class WithdrawalEntity {
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

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: WithdrawalStatus;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  /** The signed transfer, persisted before broadcast so a crash re-sends the same one. */
  @Column({ name: 'signed_tx', type: 'text', nullable: true })
  signedTx: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
