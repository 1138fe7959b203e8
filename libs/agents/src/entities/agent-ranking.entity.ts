import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Relation } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { AgentEntity } from './agent.entity';

/**
 * What discovery and the leaderboard rank and filter by, one narrow row per agent, kept by a trigger
 * on `agents` (migration Reputation). Its indexes (the ranking order over active agents, a trigram
 * index on the names) are partial and ordered: the migration owns them.
 */
@Entity('agent_ranking')
@Index('ix_agent_ranking_order', { synchronize: false })
@Index('ix_agent_ranking_names_trgm', { synchronize: false })
export class AgentRankingEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_ranking' })
  agentId: string;

  @Column({ type: 'boolean' }) active: boolean;
  @Column({ type: 'integer' }) score: number;
  @Column({ type: 'integer' }) executions: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;

  /** The capability names joined by U+001F. */
  @Column({ name: 'capability_names', type: 'text', default: '' }) capabilityNames: string;

  /** micro-USDC: the lowest base price of its capabilities. */
  @Column({ name: 'min_price', type: 'bigint', nullable: true, transformer: bigintTransformer }) minPrice:
    bigint | null;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'fk_agent_ranking_agent' })
  agent: Relation<AgentEntity>;
}

/** A copy of each agent's search document (trigger on `agents`): recommend checks the best-ranked agents' documents here, without their wide rows. */
@Entity('agent_search')
export class AgentSearchEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_search' })
  agentId: string;

  @Column({ name: 'search_vector', type: 'tsvector', nullable: true, select: false }) searchVector: string | null;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'fk_agent_search_agent' })
  agent: Relation<AgentEntity>;
}
