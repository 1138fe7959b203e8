import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { bigintTransformer } from '@app/common';
import type { ChainNodeStatus, ChainStatus } from '../chains.repository';

/**
 * A chain (resolutions §5): one per root execution, with its budget and limits. Its money is in
 * the ledger (`chain:<id>:budget`); `available` is the part no running node has reserved (a
 * reservation is a guarded update of this row), `running` counts nodes not yet ended.
 * SQL lives in ChainsRepository; the entity describes the table (migrations are generated and
 * checked against it).
 */
@Entity('chains')
@Unique('ux_chains_root_execution', ['rootExecutionId'])
@Check('ck_chains_budget', `"budget" BETWEEN 10000 AND 1000000000`)
@Check('ck_chains_max_depth', `"max_depth" BETWEEN 0 AND 5`)
@Check('ck_chains_running', `"running" >= 0`)
@Check('ck_chains_available', `"available" >= 0`)
@Check('ck_chains_status', `"status" IN ('pending', 'running', 'completed', 'failed', 'partial')`)
@Index('ix_chains_open', ['expiresAt'], { where: `"status" IN ('pending', 'running')` })
export class ChainEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_chains' })
  id: string;

  @Column({ name: 'root_execution_id', type: 'varchar', length: 40 })
  rootExecutionId: string;

  @Column({ name: 'root_agent_id', type: 'uuid' })
  rootAgentId: string;

  @Column({ name: 'root_wallet', type: 'varchar', length: 42 })
  rootWallet: string;

  @Column({ name: 'payment_id', type: 'varchar', length: 40 })
  paymentId: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  budget: bigint;

  @Column({ name: 'max_depth', type: 'integer' })
  maxDepth: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: ChainStatus;

  @Column({ name: 'root_ended', type: 'boolean', default: false })
  rootEnded: boolean;

  @Column({ type: 'integer', default: 0 })
  running: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer })
  available: bigint;

  @Column({ name: 'trace_id', type: 'char', length: 32 })
  traceId: string;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** The latest expiry of a token handed to the root's caller (null: none): the chain stays open until then. */
  @Column({ name: 'held_until', type: 'timestamptz', nullable: true })
  heldUntil: Date | null;

  /** The root's caller gave its tokens up (closed the chain): no answer extends the hold any more. */
  @Column({ name: 'hold_released', type: 'boolean', default: false })
  holdReleased: boolean;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ name: 'refund_id', type: 'varchar', length: 40, nullable: true })
  refundId: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintTransformer })
  refunded: bigint | null;
}

/** A node of a chain: one execution in it (the root at depth 0), its reservation and, once completed, its cost. */
@Entity('chain_nodes')
@Check('ck_chain_nodes_depth', `"depth" BETWEEN 0 AND 5`)
@Check('ck_chain_nodes_amounts', `"reserved" >= 0 AND ("cost" IS NULL OR "cost" BETWEEN 0 AND "reserved")`)
@Check('ck_chain_nodes_status', `"status" IN ('running', 'completed', 'refunded')`)
@Index('ix_chain_nodes_chain', ['chainId', 'startedAt'])
export class ChainNodeEntity {
  @PrimaryColumn({ name: 'execution_id', type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_chain_nodes' })
  executionId: string;

  @Column({ name: 'chain_id', type: 'uuid' })
  chainId: string;

  /** Only to declare the foreign key (ChainsRepository never loads relations). */
  @ManyToOne(() => ChainEntity, { nullable: false })
  @JoinColumn({ name: 'chain_id', foreignKeyConstraintName: 'fk_chain_nodes_chain' })
  chain?: ChainEntity;

  @Column({ name: 'parent_execution_id', type: 'varchar', length: 40, nullable: true })
  parentExecutionId: string | null;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'capability_id', type: 'varchar', length: 100 })
  capabilityId: string;

  @Column({ type: 'integer' })
  depth: number;

  @Column({ name: 'span_id', type: 'char', length: 16 })
  spanId: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  reserved: bigint;

  @Column({ type: 'bigint', nullable: true, transformer: bigintTransformer })
  cost: bigint | null;

  @Column({ type: 'varchar', length: 16, default: 'running' })
  status: ChainNodeStatus;

  /** Started by a call of the root's caller, or below one: it may call once the root has ended. */
  @Column({ type: 'boolean', default: false })
  held: boolean;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40, nullable: true })
  transactionId: string | null;

  @Column({ name: 'execution_time_ms', type: 'integer', nullable: true })
  executionTimeMs: number | null;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
