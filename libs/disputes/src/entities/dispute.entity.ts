import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';
import type { DisputeOutcome } from '../dispute-refund.rule';

export type DisputeStatus = 'pending' | 'responded' | 'resolved';
/** How the filer proved it was the payer: its signature, or the original payment header. */
export type PayerProofKind = 'signature' | 'payment_header';

/** The stored decision: the outcome, the money it moved (micro-USDC as decimal strings), and who decided. */
export interface DisputeResolution {
  outcome: DisputeOutcome;
  note: string | null;
  refundAmount: string;
  releasedAmount: string;
  /** `admin`, or `system:timeout` for a pending dispute unanswered when its window closed. */
  resolvedBy: string;
  /** Whether the admin advanced what the agent had withdrawn (the platform refunds it now; the agent owes it to the platform). */
  advance?: boolean;
}

/** A dispute with where its refund stands: refunded so far, and still owed to the payer by the agent (repaid from its later earnings). */
export type DisputeView = DisputeEntity & { refundedAmount: bigint; outstandingAmount: bigint };

/**
 * A dispute (`dsp_`) of a charged transaction by its payer (resolutions §7): the agent's earnings
 * of that transaction are frozen (`agent:<id>:frozen`) from filing to resolution.
 */
@Entity('disputes')
@Check('ck_disputes_status', `"status" IN ('pending', 'responded', 'resolved')`)
@Check('ck_disputes_amounts', `"frozen_amount" >= 0 AND "advanced_amount" >= 0`)
@Check('ck_disputes_frozen_from', `"frozen_from" IN ('escrow', 'available')`)
@Check('ck_disputes_payer_proof', `"payer_proof" IN ('signature', 'payment_header')`)
@Check('ck_disputes_verified', `"verified" OR "payer_proof" = 'payment_header'`)
@Check('ck_disputes_resolved', `("status" = 'resolved') = ("resolution" IS NOT NULL AND "resolved_at" IS NOT NULL)`)
@Index('ux_disputes_transaction', ['transactionId'], { unique: true })
@Index('ix_disputes_agent_created', ['agentId', 'createdAt', 'id'])
@Index('ix_disputes_pending_respond_by', ['respondBy'], { where: `"status" = 'pending'` })
// Descending columns (migration ConsoleViews), which TypeORM cannot declare: kept out of its comparison.
@Index('ix_disputes_client', { synchronize: false })
// Disputes awaiting a decision, oldest first (the operator's list): owned by the migration.
@Index('ix_disputes_open_created', { synchronize: false })
export class DisputeEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_disputes' })
  id: string;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40 })
  transactionId: string;

  /** The payer wallet (lower case): the client of the transaction. */
  @Column({ name: 'client_wallet', type: 'varchar', length: 42 })
  clientWallet: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DisputeStatus;

  @Column({ type: 'text' })
  reason: string;

  @Column({ type: 'text', nullable: true })
  evidence: string | null;

  @Column({ name: 'agent_response', type: 'text', nullable: true })
  agentResponse: string | null;

  @Column({ name: 'agent_evidence', type: 'text', nullable: true })
  agentEvidence: string | null;

  @Column({ name: 'responded_at', type: 'timestamptz', nullable: true })
  respondedAt: Date | null;

  /** What the agent still held of the transaction's earnings at filing (escrow, else available): frozen until resolution. */
  @Column({ name: 'frozen_amount', type: 'bigint', transformer: bigintTransformer })
  frozenAmount: bigint;

  /** What an admin's resolution advanced (`advance: true`): refunded to the payer by the platform before the agent repaid it; owed by the agent. */
  @Column({ name: 'advanced_amount', type: 'bigint', default: 0, transformer: bigintTransformer })
  advancedAmount: bigint;

  /** `escrow` (the hold was still held) or `available` (already released). */
  @Column({ name: 'frozen_from', type: 'varchar', length: 16 })
  frozenFrom: 'escrow' | 'available';

  @Column({ type: 'jsonb', nullable: true })
  resolution: DisputeResolution | null;

  /** What the platform saw of the execution, signed by it (CollectExecutionEvidence). */
  @Column({ name: 'platform_evidence', type: 'jsonb' })
  platformEvidence: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'respond_by', type: 'timestamptz' })
  respondBy: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  /** How the filer proved it was the payer (null: filed before this was recorded). */
  @Column({ name: 'payer_proof', type: 'varchar', length: 16, nullable: true })
  payerProof: PayerProofKind | null;

  /**
   * False: proved only by a payment header anyone can rebuild from public chain data (evm settlement). It moved
   * no reputation, gave no evidence key and never resolves itself at its deadline, until the payer's signature
   * confirms it (filing again); an admin may decide it.
   */
  @Column({ type: 'boolean', default: true })
  verified: boolean;
}
