import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

/**
 * An agent's totals (migration Reputation): charged executions and their money and time, kept by
 * the trigger on `transactions`; failures and dispute outcomes, kept by `reputation_apply`.
 */
@Entity('agent_stats')
export class AgentStatsEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_stats' })
  agentId: string;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) completed: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) failed: bigint;
  @Column({ name: 'disputes_filed', type: 'bigint', default: 0, transformer: bigintTransformer }) disputesFiled: bigint;
  @Column({ name: 'disputes_won', type: 'bigint', default: 0, transformer: bigintTransformer }) disputesWon: bigint;
  @Column({ name: 'disputes_lost', type: 'bigint', default: 0, transformer: bigintTransformer }) disputesLost: bigint;
  @Column({ name: 'disputes_split', type: 'bigint', default: 0, transformer: bigintTransformer }) disputesSplit: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) gross: bigint;
  @Column({ name: 'platform_fees', type: 'bigint', default: 0, transformer: bigintTransformer }) platformFees: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) net: bigint;
  @Column({ name: 'time_sum_ms', type: 'bigint', default: 0, transformer: bigintTransformer }) timeSumMs: bigint;
}

/** How many of an agent's charged executions took `bucketMs` (exact below 1,024 ms, then ten significant bits). */
@Entity('agent_latency')
export class AgentLatencyEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_latency' })
  agentId: string;

  @PrimaryColumn({ name: 'bucket_ms', type: 'integer', primaryKeyConstraintName: 'pk_agent_latency' })
  bucketMs: number;

  @Column({ type: 'bigint', transformer: bigintTransformer }) n: bigint;
}

/** A shard of the platform's totals: 0-15 transactions and volume (trigger on `transactions`), 16-31 agents (trigger on `agents`). */
@Entity('platform_stats')
export class PlatformStatsEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'pk_platform_stats' })
  shard: number;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) agents: bigint;
  @Column({ name: 'active_agents', type: 'bigint', default: 0, transformer: bigintTransformer }) activeAgents: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) transactions: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) volume: bigint;
}
