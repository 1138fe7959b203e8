import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One change of an agent's score (migration Reputation): written by `reputation_apply` in the outcome's transaction. */
@Entity('reputation_events')
@Check('ck_reputation_events_score', `"score" BETWEEN 0 AND 100`)
// (agent_id, created_at, id) INCLUDE (type, delta): the migration owns it (TypeORM cannot express INCLUDE).
@Index('ix_reputation_events_agent_created', { synchronize: false })
// (agent_id, payer, created_at) WHERE payer IS NOT NULL AND delta <> 0: one payer's recent changes of an agent (migration MarketIntegrity).
@Index('ix_reputation_events_payer', { synchronize: false })
// (agent_id, created_at) WHERE funded = false AND delta < 0: the unfunded payers' recent penalties (migration ReputationWeight).
@Index('ix_reputation_events_unfunded', { synchronize: false })
// (agent_id, created_at) WHERE funded = true AND delta < 0: the funded payers' recent penalties (migration ReputationVerdicts).
@Index('ix_reputation_events_funded', { synchronize: false })
export class ReputationEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_reputation_events' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  /** The change applied (after the 0-100 clamp). */
  @Column({ type: 'integer' })
  delta: number;

  /** The score after this change. */
  @Column({ type: 'integer' })
  score: number;

  /** What caused it: a transaction, an execution, a dispute. */
  @Column({ name: 'ref_id', type: 'varchar', length: 64, nullable: true })
  refId: string | null;

  /** The wallet whose payment or dispute caused it (lower case); null when the platform decided (a dispute's resolution). */
  @Column({ type: 'varchar', length: 42, nullable: true })
  payer: string | null;

  /** Whether the payer had paid agora the funded minimum elsewhere then (null: the platform decided, or the agent's own wallet). */
  @Column({ type: 'boolean', nullable: true })
  funded: boolean | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
