import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event written in the same transaction as the change it reports. Relayed to the queue
 * after commit; `published_at` stays null until then, so the sweeper can re-relay.
 */
@Entity('outbox_events')
@Index('ix_outbox_events_unpublished', ['publishedAt', 'createdAt'])
@Index('ix_outbox_events_agent', ['agentId', 'createdAt'])
export class OutboxEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_outbox_events' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ name: 'agent_id', type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The W3C traceparent of the span that recorded the event (null while tracing is off). */
  @Column({ type: 'varchar', length: 55, nullable: true })
  traceparent: string | null;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;
}
