import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId, Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

/** A delivery attempt claimed by a worker (`sending`, locked until its hold ends). */
export interface ClaimedDelivery {
  id: string;
  kind: 'webhook' | 'callback';
  subscriptionId: string | null;
  eventId: string | null;
  eventType: string | null;
  executionId: string | null;
  url: string;
  /** Null: a completed execution's callback, built from its stored output. */
  body: string | null;
  attempt: number;
  manual: boolean;
  traceparent: string | null;
}

/** The SQL of `webhook_deliveries` (and the subscription a last failure stops): DeliveryService decides, this stores. */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A callback attempt due at `at`, inside the caller's transaction; null when it exists already. */
  async insertCallback(
    manager: Queryable,
    c: { executionId: string; url: string; body: Record<string, unknown> | null },
    traceparent: string | null,
    at: Date,
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO webhook_deliveries (id, kind, execution_id, url, body, traceparent, attempt, status, scheduled_at)
       VALUES ($1, 'callback', $2, $3, $4, $5, 1, 'pending', $6) ON CONFLICT DO NOTHING RETURNING id`,
      [newId('dlv'), c.executionId, c.url, c.body === null ? null : JSON.stringify(c.body), traceparent, at],
    );
    return row?.id ?? null;
  }

  /** Claims a due attempt (pending, or sending with an expired claim) until `until`; undefined when there is none. */
  async claim(id: string, now: Date, until: Date): Promise<ClaimedDelivery | undefined> {
    const [d] = await queryRows<ClaimedDelivery>(
      this.dataSource.manager,
      `UPDATE webhook_deliveries SET status = 'sending', locked_until = $3, attempted_at = $2
        WHERE id = $1 AND scheduled_at <= $2 AND (status = 'pending' OR (status = 'sending' AND locked_until < $2))
        RETURNING id, kind, subscription_id AS "subscriptionId", event_id AS "eventId", event_type AS "eventType", execution_id AS "executionId",
                  url, body, attempt, manual, traceparent`,
      [id, now, until],
    );
    return d;
  }

  /** The subscription and its event's creation time, for an event delivery's URL and signed headers. */
  async subscriptionTarget(
    subscriptionId: string | null,
    eventId: string | null,
  ): Promise<{ url: string; secret: string | null; status: string; createdAt: Date } | undefined> {
    const [s] = await queryRows<{ url: string; secret: string | null; status: string; createdAt: Date }>(
      this.dataSource.manager,
      `SELECT s.url, s.secret, s.status, e.created_at AS "createdAt" FROM webhook_subscriptions s, outbox_events e WHERE s.id = $1 AND e.id = $2`,
      [subscriptionId, eventId],
    );
    return s;
  }

  /** Records the answer of a claimed attempt; false when the claim was lost meanwhile. */
  async record(
    id: string,
    status: DeliveryStatus,
    r: { responseStatus?: number | null; durationMs?: number; error?: string },
    m: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      m,
      `UPDATE webhook_deliveries SET status = $2, response_status = $3, duration_ms = $4, error = $5, locked_until = NULL
        WHERE id = $1 AND status = 'sending' RETURNING id`,
      [id, status, r.responseStatus ?? null, r.durationMs ?? null, r.error ?? null],
    );
    return rows.length === 1;
  }

  /** Stops an active subscription after its last failed attempt. */
  async failSubscription(m: EntityManager, subscriptionId: string | null, reason: string, at: Date): Promise<void> {
    await m.query(
      `UPDATE webhook_subscriptions SET status = 'failed', failure_reason = $2, status_changed_at = $3 WHERE id = $1 AND status = 'active'`,
      [subscriptionId, reason, at],
    );
  }

  /** The attempt after `id`, due at `at`; null when it exists already. */
  async insertNextAttempt(m: EntityManager, id: string, at: Date): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      m,
      `INSERT INTO webhook_deliveries (id, kind, subscription_id, event_id, event_type, execution_id, url, body, traceparent, attempt, status, scheduled_at)
       SELECT $2, kind, subscription_id, event_id, event_type, execution_id, url, body, traceparent, attempt + 1, 'pending', $3 FROM webhook_deliveries WHERE id = $1
       ON CONFLICT DO NOTHING RETURNING id`,
      [id, newId('dlv'), at],
    );
    return row?.id ?? null;
  }

  /** A manual attempt of a past event delivery to the subscription's current URL; null when there is no such delivery. */
  async insertRedelivery(
    manager: EntityManager,
    subscriptionId: string,
    deliveryId: string,
    at: Date,
    traceparent: string | null,
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO webhook_deliveries (id, kind, subscription_id, event_id, event_type, url, body, traceparent, attempt, manual, status, scheduled_at)
       SELECT $3, d.kind, d.subscription_id, d.event_id, d.event_type, s.url, d.body, $5, d.attempt, true, 'pending', $4
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.id = $1 AND d.subscription_id = $2 AND s.status <> 'deleted'
       RETURNING id`,
      [deliveryId, subscriptionId, newId('dlv'), at, traceparent],
    );
    return row?.id ?? null;
  }

  get(id: string): Promise<WebhookDeliveryEntity | null> {
    return this.dataSource.manager.findOne(WebhookDeliveryEntity, { where: { id } });
  }

  async list(subscriptionId: string, page: Page): Promise<{ deliveries: WebhookDeliveryEntity[]; total: number }> {
    const [deliveries, total] = await this.dataSource.manager.findAndCount(WebhookDeliveryEntity, {
      where: { subscriptionId },
      order: { createdAt: 'DESC', attempt: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { deliveries, total };
  }

  /** Attempts due at `now` with no live claim. */
  async due(now: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM webhook_deliveries
        WHERE (status = 'pending' AND scheduled_at <= $1 AND (locked_until IS NULL OR locked_until < $1)) OR (status = 'sending' AND locked_until < $1)
        ORDER BY scheduled_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Outbox events created at or before `before` and not yet fanned out. */
  async unpublishedEvents(before: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM outbox_events WHERE published_at IS NULL AND created_at <= $1 ORDER BY created_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((r) => r.id);
  }
}
