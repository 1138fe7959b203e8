import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

/**
 * What an agent owes because a dispute's refund reached earnings it had already withdrawn
 * (resolutions §7; migration MarketIntegrity). The platform does not advance it: the agent's later
 * earnings repay it (`agent:<id>:owed` is its ledger side) before anything else, and each
 * repayment goes to the payer as a refund (`refunded`). An admin's resolution may advance it
 * explicitly: then the payer was paid at once, the creditor is the platform (`creditorWallet` null)
 * and repayments only give the platform its money back.
 */
@Entity('agent_debts')
@Check(
  'ck_agent_debts_amounts',
  `"amount" > 0 AND "repaid" >= 0 AND "repaid" <= "amount" AND "refunded" >= 0 AND "refunded" <= "repaid"`,
)
@Check('ck_agent_debts_platform', `"creditor_wallet" IS NOT NULL OR "refunded" = 0`)
@Index('ux_agent_debts_dispute', ['disputeId'], { unique: true })
@Index('ix_agent_debts_open', ['agentId', 'createdAt', 'id'], { where: `"repaid" < "amount"` })
export class AgentDebtEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_agent_debts' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'dispute_id', type: 'varchar', length: 40 })
  disputeId: string;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40 })
  transactionId: string;

  /** The payer owed (lower case), or null: the platform, which advanced it on an admin's resolution. */
  @Column({ name: 'creditor_wallet', type: 'varchar', length: 42, nullable: true })
  creditorWallet: string | null;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: bigint;

  /** Repaid from the agent's later earnings so far. */
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer })
  repaid: bigint;

  /** Of what was repaid, the part already refunded to the payer (a refund row each time). */
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer })
  refunded: bigint;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
