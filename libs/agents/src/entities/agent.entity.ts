import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  OneToMany,
  PrimaryColumn,
  Relation,
  UpdateDateColumn,
} from 'typeorm';
import { AgentCapabilityEntity } from './agent-capability.entity';
import type { AgentHealthView } from '../health/health-view';

export type AgentStatus = 'active' | 'inactive' | 'suspended';
export const AGENT_STATUSES: readonly AgentStatus[] = ['active', 'inactive', 'suspended'];

export interface AgentEndpoints {
  execution: string;
  health?: string;
}

export interface ChainSettings {
  chain_enabled: boolean;
  chain_max_depth: number;
  chain_allowed_callers: string[];
  chain_blocked_callers: string[];
}

export const DEFAULT_CHAIN_SETTINGS: ChainSettings = {
  chain_enabled: true,
  chain_max_depth: 5,
  chain_allowed_callers: [],
  chain_blocked_callers: [],
};

@Entity('agents')
@Check('ck_agents_reputation_range', `"reputation_score" BETWEEN 0 AND 100`)
@Check('ck_agents_status', `"status" IN ('active', 'inactive', 'suspended')`)
@Check('ck_agents_suspended_by', `"suspended_by" IS NULL OR "suspended_by" IN ('reputation', 'admin')`)
@Index('ix_agents_wallet', ['wallet'])
// Full-text and trigram indexes use operator classes TypeORM cannot express; the
// migration owns them and the schema diff leaves them alone.
@Index('ix_agents_search_vector', { synchronize: false })
@Index('ix_agents_search_text_trgm', { synchronize: false })
// Suspended agents, newest suspension first (the operator's list): a partial, descending index.
@Index('ix_agents_suspended', { synchronize: false })
export class AgentEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_agents' })
  id: string;

  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'jsonb' })
  endpoints: AgentEndpoints;

  @Column({ type: 'jsonb', default: {} })
  metadata: Record<string, unknown>;

  @Column({ name: 'reputation_score', type: 'integer', default: 50 })
  reputationScore: number;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: AgentStatus;

  @Column({ name: 'chain_settings', type: 'jsonb' })
  chainSettings: ChainSettings;

  @Column({ name: 'execution_count', type: 'integer', default: 0 })
  executionCount: number;

  /**
   * Bumped by triggers (migration AgentConfigVersion) when what an execution reads of the agent
   * or its capabilities changes; the api's cache of execute targets checks it.
   */
  @Column({ name: 'config_version', type: 'bigint', default: 0, select: false })
  configVersion: string;

  @Column({ name: 'suspended_reason', type: 'varchar', length: 500, nullable: true })
  suspendedReason: string | null;

  /**
   * Who suspended it: `reputation` (its score reached 0: no new executions, withdrawals past the
   * reserve still allowed) or `admin` (no withdrawals either). Null while not suspended.
   */
  @Column({ name: 'suspended_by', type: 'varchar', length: 16, nullable: true })
  suspendedBy: 'reputation' | 'admin' | null;

  /** When it was last suspended (set by a trigger; null while not suspended, or not recorded). */
  @Column({ name: 'suspended_at', type: 'timestamptz', nullable: true })
  suspendedAt: Date | null;

  /** Why the platform set the agent inactive (it failed every health probe too long); null otherwise. */
  @Column({ name: 'inactive_reason', type: 'varchar', length: 500, nullable: true })
  inactiveReason: string | null;

  /** Names and descriptions of the agent and its capabilities, for trigram matching. */
  /**
   * Set once, by the upgrade to 1.2 (migration ReserveRecordAtUpgrade), on the agents whose record 1.1's
   * rule had established: they stay exempt from the withdrawal reserve. Null for every other agent.
   */
  @Column({ name: 'reserve_established_at', type: 'timestamptz', nullable: true, select: false })
  reserveEstablishedAt: Date | null;

  @Column({ name: 'search_text', type: 'text', default: '' })
  searchText: string;

  /** Weighted full-text document, written from search parts whenever the agent changes. */
  @Column({ name: 'search_vector', type: 'tsvector', nullable: true, select: false })
  searchVector: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** Not a column: the health the probes saw (agent_health), attached by the read models that show it. */
  health?: AgentHealthView;

  @OneToMany(() => AgentCapabilityEntity, (c) => c.agent)
  capabilities: Relation<AgentCapabilityEntity>[];
}
