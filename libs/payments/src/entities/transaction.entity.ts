import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

export type TransactionStatus = 'completed' | 'disputed' | 'refunded';

/** A charged execution (`tx_`): what the client paid and how it was split. */
@Entity('transactions')
@Check('ck_transactions_status', `"status" IN ('completed', 'disputed', 'refunded')`)
@Check(
  'ck_transactions_split',
  `"platform_cut" + "agent_earnings" = "agent_fee" AND "gross_amount" = "platform_fee" + "agent_fee"`,
)
@Index('ix_transactions_agent_created', ['providingAgentId', 'createdAt', 'id'])
@Index('ix_transactions_payer', ['payerWallet'])
@Index('ux_transactions_payment', ['paymentId'], { unique: true })
@Index('ix_transactions_spend_uncounted', ['completedAt'], {
  where: `"spend_counted" = false AND "status" <> 'disputed'`,
})
// BRIN (migration Series), which TypeORM cannot declare: kept out of its comparison.
@Index('ix_transactions_created_brin', { synchronize: false })
export class TransactionEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_transactions' })
  id: string;

  /** The client: the payer wallet, or the calling agent id inside a chain. */
  @Column({ name: 'requesting_agent', type: 'varchar', length: 64 })
  requestingAgent: string;

  @Column({ name: 'payer_wallet', type: 'varchar', length: 42 })
  payerWallet: string;

  @Column({ name: 'providing_agent_id', type: 'uuid' })
  providingAgentId: string;

  @Column({ name: 'capability_id', type: 'varchar', length: 100 })
  capabilityId: string;

  @Column({ name: 'gross_amount', type: 'bigint', transformer: bigintTransformer })
  grossAmount: bigint;

  @Column({ name: 'platform_fee', type: 'bigint', transformer: bigintTransformer })
  platformFee: bigint;

  @Column({ name: 'agent_fee', type: 'bigint', transformer: bigintTransformer })
  agentFee: bigint;

  @Column({ name: 'platform_cut', type: 'bigint', transformer: bigintTransformer })
  platformCut: bigint;

  @Column({ name: 'agent_earnings', type: 'bigint', transformer: bigintTransformer })
  agentEarnings: bigint;

  @Column({ type: 'varchar', length: 16, default: 'completed' })
  status: TransactionStatus;

  @Column({ name: 'execution_time_ms', type: 'integer', default: 0 })
  executionTimeMs: number;

  @Column({ name: 'payment_id', type: 'varchar', length: 40, nullable: true })
  paymentId: string | null;

  @Column({ name: 'escrow_id', type: 'varchar', length: 40, nullable: true })
  escrowId: string | null;

  @Column({ name: 'dispute_id', type: 'varchar', length: 40, nullable: true })
  disputeId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Whether its agent fee has been counted in its payer's settled spend, once matured (migration MaturedPayerSpend). */
  @Column({ name: 'spend_counted', type: 'boolean', default: false })
  spendCounted: boolean;
}
