import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';
import type { PricingModel } from '@app/agents';
import type { ExecuteRoute } from '@app/catalog';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';

export type ExecutionStatus = 'pending' | 'completed' | 'failed' | 'timeout' | 'refunded';
/** `settlement_expired`: terminal, the authorization passed its validBefore without moving money (nothing charged). */
export type SettlementStatus = 'settlement_pending' | 'settled' | 'settlement_failed' | 'settlement_expired';

/** One execution (`req_`): the paid call of one capability, its state, and what it cost. */
@Entity('executions')
@Check('ck_executions_status', `"status" IN ('pending', 'completed', 'failed', 'timeout', 'refunded')`)
@Check(
  'ck_executions_settlement',
  `"settlement_status" IS NULL OR "settlement_status" IN ('settlement_pending', 'settled', 'settlement_failed', 'settlement_expired')`,
)
@Index('ix_executions_agent_created', ['agentId', 'createdAt'])
@Index('ix_executions_status_next', ['status', 'nextAttemptAt'])
@Index('ix_executions_payload_kept', ['createdAt'], { where: `"payload_pruned_at" IS NULL` })
@Index('ux_executions_payment', ['paymentId'], { unique: true })
// BRIN (migration Series), which TypeORM cannot declare: kept out of its comparison.
@Index('ix_executions_ended_brin', { synchronize: false })
// An expression index (migration PayerExecutions), which TypeORM cannot declare.
@Index('ix_executions_payer', { synchronize: false })
// Partial over uncharged runs (migration UnchargedPayloads), kept out of TypeORM's comparison like the above.
@Index('ix_executions_uncharged_kept', { synchronize: false })
@Check('ck_executions_fees', `"agent_fee" >= 0 AND "agent_fee" <= "authorized_agent_fee"`)
@Check('ck_executions_route', `"route" IN ('execute', 'capability')`)
@Check('ck_executions_funding', `"payment_id" IS NOT NULL OR ("chain_id" IS NOT NULL AND "header_hash" IS NULL)`)
export class ExecutionEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_executions' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'capability_id', type: 'varchar', length: 100 })
  capabilityId: string;

  /** Lower-case payer wallet (the client). */
  @Column({ type: 'varchar', length: 42 })
  payer: string;

  /** Null once pruned (payloadPrunedAt). */
  @Column({ type: 'jsonb', nullable: true })
  input: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  output: Record<string, unknown> | null;

  /**
   * When the input and output were deleted (EXECUTION_PAYLOAD_RETENTION_DAYS); the row, its money
   * and these hashes stay: SHA-256 (hex) of the canonical JSON of each, as dispute evidence states them.
   */
  @Column({ name: 'payload_pruned_at', type: 'timestamptz', nullable: true })
  payloadPrunedAt: Date | null;

  @Column({ name: 'input_sha256', type: 'varchar', length: 64, nullable: true })
  inputSha256: string | null;

  @Column({ name: 'output_sha256', type: 'varchar', length: 64, nullable: true })
  outputSha256: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: ExecutionStatus;

  @Column({ name: 'settlement_status', type: 'varchar', length: 24, nullable: true })
  settlementStatus: SettlementStatus | null;

  @Column({ name: 'agent_error', type: 'text', nullable: true })
  agentError: string | null;

  @Column({ name: 'execution_time_ms', type: 'integer', nullable: true })
  executionTimeMs: number | null;

  @Column({ name: 'retry_count', type: 'integer', default: 0 })
  retryCount: number;

  /** micro-USDC: the agent fee actually charged (known once the agent answered) and the platform fee. */
  @Column({ name: 'agent_fee', type: 'bigint', transformer: bigintTransformer })
  agentFee: bigint;

  @Column({ name: 'platform_fee', type: 'bigint', transformer: bigintTransformer })
  platformFee: bigint;

  /** Pricing at the time of the call: model, basePrice, and the agent fee the payment covers (basePrice, or maxPrice for variable pricing). */
  @Column({ name: 'pricing_model', type: 'varchar', length: 16, default: 'per-request' })
  pricingModel: PricingModel;

  @Column({ name: 'unit_price', type: 'bigint', transformer: bigintTransformer, default: 0 })
  unitPrice: bigint;

  @Column({ name: 'authorized_agent_fee', type: 'bigint', transformer: bigintTransformer })
  authorizedAgentFee: bigint;

  /** Tokens the agent reported (`usage.tokens`), when it did. */
  @Column({ name: 'usage_tokens', type: 'integer', nullable: true })
  usageTokens: number | null;

  /** The refund of the unused part of a variable-price execution (`rfd_`), when there is one. */
  @Column({ name: 'refund_id', type: 'varchar', length: 40, nullable: true })
  refundId: string | null;

  /** The x402 payment (null for a chain's sub-call, which its chain's budget pays). */
  @Column({ name: 'payment_id', type: 'varchar', length: 40, nullable: true })
  paymentId: string | null;

  /** The chain this execution runs in (its root or a sub-call), if any. */
  @Column({ name: 'chain_id', type: 'uuid', nullable: true })
  chainId: string | null;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40, nullable: true })
  transactionId: string | null;

  /** SHA-256 of the original payment header: output is given only to a request carrying it. */
  /** SHA-256 of the payment header (null for a sub-call: a token of its chain reads it). */
  @Column({ name: 'header_hash', type: 'varchar', length: 64, nullable: true })
  headerHash: string | null;

  @Column({ name: 'is_async', type: 'boolean', default: false })
  isAsync: boolean;

  @Column({ name: 'callback_url', type: 'varchar', length: 2048, nullable: true })
  callbackUrl: string | null;

  /** A pending run waiting its agent's turn in the worker (its job delayed): the sweeper leaves it alone until then. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** When the database recorded its end (now() of the writing transaction, migration Series): the series' cursor. */
  @Column({ name: 'ended_at', type: 'timestamptz', default: () => 'now()' })
  endedAt: Date;

  /** The signed receipt (`offer-receipt`) the payer was answered with: x402 payments only, once charged. */
  @Column({ type: 'jsonb', nullable: true })
  receipt: SignedReceipt | null;

  /** The paid route it came by (its receipt names that route's URL). */
  @Column({ type: 'varchar', length: 16, default: 'execute' })
  route: ExecuteRoute;
}
