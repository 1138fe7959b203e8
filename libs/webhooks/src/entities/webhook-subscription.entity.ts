import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type WebhookStatus = 'active' | 'failed' | 'deleted';

/**
 * A webhook subscription (`wh_`): the events of one agent posted to an HTTPS URL. `failed`
 * after a 410 or the fifth failed attempt of a delivery (delivery stops); `deleted` keeps the
 * row for the delivery log. The secret is write-only: it signs deliveries and is never returned.
 */
@Entity('webhook_subscriptions')
@Check('ck_webhook_subscriptions_status', `"status" IN ('active', 'failed', 'deleted')`)
@Index('ix_webhook_subscriptions_agent_status', ['agentId', 'status'])
// Failed subscriptions, newest first (the operator's list): a partial, descending index owned by the migration.
@Index('ix_webhook_subscriptions_failed', { synchronize: false })
export class WebhookSubscriptionEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_webhook_subscriptions' })
  id: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'varchar', length: 256, nullable: true })
  secret: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: WebhookStatus;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null;
}
