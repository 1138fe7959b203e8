import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type DeliveryKind = 'webhook' | 'callback';
export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed' | 'cancelled';

/**
 * One delivery attempt (`dlv_`): an event to a subscription (`webhook`), or an execution's result
 * to its callbackUrl (`callback`). Each attempt is its own row and its own job; a failed attempt
 * schedules the next row on WEBHOOK_RETRY_DELAYS_MS. The body is the exact bytes sent on every
 * attempt; signatures are made per attempt. A completed execution's callback has no body: it is
 * built from the execution's stored output when sent (the output is stored once).
 */
@Entity('webhook_deliveries')
@Check('ck_webhook_deliveries_kind', `"kind" IN ('webhook', 'callback')`)
@Check('ck_webhook_deliveries_status', `"status" IN ('pending', 'sending', 'succeeded', 'failed', 'cancelled')`)
@Check('ck_webhook_deliveries_body', `"body" IS NOT NULL OR "kind" = 'callback'`)
@Check(
  'ck_webhook_deliveries_target',
  `("kind" = 'webhook' AND "subscription_id" IS NOT NULL AND "event_id" IS NOT NULL) OR ("kind" = 'callback' AND "execution_id" IS NOT NULL)`,
)
@Index('ux_webhook_deliveries_webhook_attempt', ['subscriptionId', 'eventId', 'attempt'], {
  unique: true,
  where: `"kind" = 'webhook' AND NOT "manual"`,
})
@Index('ux_webhook_deliveries_callback_attempt', ['executionId', 'attempt'], {
  unique: true,
  where: `"kind" = 'callback'`,
})
@Index('ix_webhook_deliveries_status_scheduled', ['status', 'scheduledAt'])
@Index('ix_webhook_deliveries_subscription_created', ['subscriptionId', 'createdAt'])
// Each subscription's failed attempts, newest first (migration AdminReadIndexes: partial, descending).
@Index('ix_webhook_deliveries_failed', { synchronize: false })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_webhook_deliveries' })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  kind: DeliveryKind;

  @Column({ name: 'subscription_id', type: 'varchar', length: 40, nullable: true })
  subscriptionId: string | null;

  @Column({ name: 'event_id', type: 'varchar', length: 40, nullable: true })
  eventId: string | null;

  @Column({ name: 'event_type', type: 'varchar', length: 64, nullable: true })
  eventType: string | null;

  @Column({ name: 'execution_id', type: 'varchar', length: 40, nullable: true })
  executionId: string | null;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Null: a completed execution's callback, `{requestId, status, output}` built from the execution when sent. */
  @Column({ type: 'text', nullable: true })
  body: string | null;

  /** 1-5 on the retry schedule; a manual redelivery is a single attempt outside it. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'boolean', default: false })
  manual: boolean;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DeliveryStatus;

  @Column({ name: 'scheduled_at', type: 'timestamptz' })
  scheduledAt: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ name: 'attempted_at', type: 'timestamptz', nullable: true })
  attemptedAt: Date | null;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** What the receiver answered (its first 2 KB); null before an answer or when none came. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  /** The W3C traceparent of what caused the delivery (the event's, or the run's for a callback); null while tracing is off. */
  @Column({ type: 'varchar', length: 55, nullable: true })
  traceparent: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
