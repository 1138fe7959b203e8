import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

/** A subscription's failed delivery attempts. */
export interface SubscriptionFailures {
  failedAttempts: number;
  lastError: string | null;
  lastResponseStatus: number | null;
  lastAttemptAt: Date | null;
}

/** A delivery attempt as its job claims it. */
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

/**
 * The SQL of `webhook_deliveries` (one row per attempt; rows, not Redis, hold the schedule), and the
 * sweeper's read of `outbox_events` not yet fanned out. Writes take the caller's manager.
 */
/** A failed subscription's attempts are counted up to this many (a bounded read per subscription). */
export const FAILURES_COUNTED = 1_000;

@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertCallback(
    m: Queryable,
    c: { id: string; executionId: string; url: string; body: string | null; traceparent: string | null; at: Date },
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      m,
      `INSERT INTO webhook_deliveries (id, kind, execution_id, url, body, traceparent, attempt, status, scheduled_at)
       VALUES ($1, 'callback', $2, $3, $4, $5, 1, 'pending', $6) ON CONFLICT DO NOTHING RETURNING id`,
      [c.id, c.executionId, c.url, c.body, c.traceparent, c.at],
    );
    return row?.id ?? null;
  }

  /** Claims a due attempt (or one whose claim expired) until `until`; undefined when it is not claimable. */
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

  /** Records the answer of a claimed attempt; false when the claim was lost meanwhile. */
  async record(
    id: string,
    status: DeliveryStatus,
    r: { responseStatus?: number | null; durationMs?: number; error?: string; responseBody?: string | null },
    m: Queryable = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      m,
      `UPDATE webhook_deliveries SET status = $2, response_status = $3, duration_ms = $4, error = $5, response_body = $6,
              locked_until = NULL
        WHERE id = $1 AND status = 'sending' RETURNING id`,
      [id, status, r.responseStatus ?? null, r.durationMs ?? null, r.error ?? null, r.responseBody ?? null],
    );
    return rows.length === 1;
  }

  /** The attempt after `fromId`, due at `at` (null if it exists already). */
  async insertNextAttempt(m: Queryable, fromId: string, id: string, at: Date): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      m,
      `INSERT INTO webhook_deliveries (id, kind, subscription_id, event_id, event_type, execution_id, url, body, traceparent, attempt, status, scheduled_at)
       SELECT $2, kind, subscription_id, event_id, event_type, execution_id, url, body, traceparent, attempt + 1, 'pending', $3 FROM webhook_deliveries WHERE id = $1
       ON CONFLICT DO NOTHING RETURNING id`,
      [fromId, id, at],
    );
    return row?.id ?? null;
  }

  /** A manual attempt of a past event delivery, to the subscription's current URL (null: no such delivery). */
  async insertRedelivery(
    m: Queryable,
    r: { deliveryId: string; subscriptionId: string; id: string; at: Date; traceparent: string | null },
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      m,
      `INSERT INTO webhook_deliveries (id, kind, subscription_id, event_id, event_type, url, body, traceparent, attempt, manual, status, scheduled_at)
       SELECT $3, d.kind, d.subscription_id, d.event_id, d.event_type, s.url, d.body, $5, d.attempt, true, 'pending', $4
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.id = $1 AND d.subscription_id = $2 AND s.status <> 'deleted'
       RETURNING id`,
      [r.deliveryId, r.subscriptionId, r.id, r.at, r.traceparent],
    );
    return row?.id ?? null;
  }

  async cancelPending(m: Queryable, subscriptionId: string): Promise<void> {
    await m.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', error = 'subscription deleted' WHERE subscription_id = $1 AND status = 'pending'`,
      [subscriptionId],
    );
  }

  findById(id: string): Promise<WebhookDeliveryEntity | null> {
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

  /** Due attempts, with when each became due: its scheduled time, or a lapsed claim's end. */
  async due(now: Date, limit: number): Promise<{ id: string; dueAt: Date }[]> {
    return this.dataSource.query(
      `SELECT id, CASE WHEN status = 'sending' THEN locked_until ELSE scheduled_at END AS "dueAt" FROM webhook_deliveries
        WHERE (status = 'pending' AND scheduled_at <= $1 AND (locked_until IS NULL OR locked_until < $1)) OR (status = 'sending' AND locked_until < $1)
        ORDER BY scheduled_at LIMIT $2`,
      [now, limit],
    );
  }

  async unpublishedEvents(createdBefore: Date, limit: number): Promise<{ id: string; createdAt: Date }[]> {
    return this.dataSource.query(
      `SELECT id, created_at AS "createdAt" FROM outbox_events WHERE published_at IS NULL AND created_at <= $1 ORDER BY created_at LIMIT $2`,
      [createdBefore, limit],
    );
  }

  /** A claimed attempt waits its turn: back to `pending`, marked in line until `lineUntil`. */
  async park(id: string, claimedUntil: Date, lineUntil: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'pending', locked_until = $3, attempted_at = NULL WHERE id = $1 AND status = 'sending' AND locked_until = $2`,
      [id, claimedUntil, lineUntil],
    );
  }

  async urlOf(id: string): Promise<string | null> {
    const [row] = await queryRows<{ url: string }>(
      this.dataSource.manager,
      `SELECT url FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    return row?.url ?? null;
  }

  /** Every attempt marked in line becomes due for the sweeper again. */
  async releaseLine(): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET locked_until = NULL WHERE status = 'pending' AND locked_until IS NOT NULL`,
    );
  }
  /**
   * For each subscription given, its failed attempts (counted up to FAILURES_COUNTED) and the last
   * one's error and HTTP status: both through `ix_webhook_deliveries_failed`, whatever its successes.
   */
  async failures(subscriptionIds: string[]): Promise<Map<string, SubscriptionFailures>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows = await queryRows<SubscriptionFailures & { subscriptionId: string }>(
      this.dataSource.manager,
      `SELECT s.id AS "subscriptionId", c.n AS "failedAttempts", l.error AS "lastError",
              l.response_status AS "lastResponseStatus", l.attempted_at AS "lastAttemptAt"
         FROM unnest($1::varchar[]) AS s(id)
        CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM (
                SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'failed'
                 LIMIT ${FAILURES_COUNTED}) f) c
         LEFT JOIN LATERAL (SELECT error, response_status, attempted_at FROM webhook_deliveries d
                             WHERE d.subscription_id = s.id AND d.status = 'failed'
                             ORDER BY d.attempted_at DESC LIMIT 1) l ON true
        WHERE c.n > 0`,
      [subscriptionIds],
    );
    return new Map(rows.map(({ subscriptionId, ...f }) => [subscriptionId, f]));
  }
}
