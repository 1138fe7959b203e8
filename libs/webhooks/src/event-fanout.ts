import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { queryRows, TransactionRunner } from '@app/database';
import { linksTo, recordSpan } from '@app/tracing';
import { DeliveryService } from './delivery.service';

/** The most events one `event.fanout` job carries (the relay's and the sweeper's batches). */
export const FANOUT_BATCH = 200;

interface OutboxRow {
  id: string;
  type: string;
  agentId: string | null;
  data: unknown;
  createdAt: Date;
  traceparent: string | null;
}

/**
 * Fans committed outbox events out to the active subscriptions of their agents that want their
 * types: one attempt-1 delivery row each, and the events marked published, in one transaction.
 * Takes a batch (the relay coalesces the notifications of a few milliseconds into one job), so
 * an execution costs its event one row lock, not a job and five round trips. Idempotent: an
 * event already published, or locked by another fan-out, is skipped. Each delivery keeps its
 * event's traceparent; the fan-out's span links to the events' traces.
 */
@Injectable()
export class EventFanout {
  constructor(
    private readonly deliveries: DeliveryService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /** Answers the number of deliveries created. */
  async execute(eventIds: string | readonly string[]): Promise<number> {
    const ids = typeof eventIds === 'string' ? [eventIds] : [...new Set(eventIds)];
    if (ids.length === 0) return 0;
    // Monotonic, not the Clock: the span's start on OpenTelemetry's own time line (a number below the time
    // origin is read as performance time), which also times its end; a test clock moved by hours must not skew it.
    const started = performance.now();
    let traceparents: (string | null)[] = [];
    const created = await this.tx.run(async (m) => {
      const events = await queryRows<OutboxRow>(
        m,
        `SELECT id, type, agent_id AS "agentId", data, created_at AS "createdAt", traceparent FROM outbox_events
          WHERE id = ANY($1) AND published_at IS NULL ORDER BY id FOR UPDATE SKIP LOCKED`,
        [ids],
      );
      if (events.length === 0) return [];
      traceparents = events.map((e) => e.traceparent);
      const agents = [...new Set(events.map((e) => e.agentId).filter((a): a is string => a !== null))];
      const subscriptions = agents.length
        ? await queryRows<{ id: string; url: string; agentId: string; events: string[] }>(
            m,
            `SELECT id, url, agent_id AS "agentId", events FROM webhook_subscriptions WHERE agent_id = ANY($1) AND status = 'active' ORDER BY id`,
            [agents],
          )
        : [];
      const now = this.clock.now();
      const rows = events.flatMap((event) => {
        const body = JSON.stringify({
          id: event.id,
          type: event.type,
          timestamp: new Date(event.createdAt).toISOString(),
          data: event.data,
        });
        return subscriptions
          .filter((s) => s.agentId === event.agentId && s.events.includes(event.type))
          .map((s) => ({ id: newId('dlv'), sub: s, event, body }));
      });
      const inserted = rows.length
        ? await queryRows<{ id: string }>(
            m,
            `INSERT INTO webhook_deliveries (id, kind, subscription_id, event_id, event_type, url, body, traceparent, attempt, status, scheduled_at)
             SELECT d.id, 'webhook', d.sub, d.event, d.type, d.url, d.body, d.traceparent, 1, 'pending', $8
               FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS d(id, sub, event, type, url, body, traceparent)
             ON CONFLICT DO NOTHING RETURNING id`,
            [
              rows.map((r) => r.id),
              rows.map((r) => r.sub.id),
              rows.map((r) => r.event.id),
              rows.map((r) => r.event.type),
              rows.map((r) => r.sub.url),
              rows.map((r) => r.body),
              rows.map((r) => r.event.traceparent),
              now,
            ],
          )
        : [];
      await m.query(`UPDATE outbox_events SET published_at = $2 WHERE id = ANY($1)`, [events.map((e) => e.id), now]);
      return inserted.map((r) => r.id);
    });
    if (traceparents.length)
      recordSpan(
        'agora.webhook.fanout',
        started,
        { 'agora.events': traceparents.length, 'agora.deliveries': created.length },
        linksTo(traceparents),
      );
    for (const id of created) await this.deliveries.wake(id, 0);
    return created.length;
  }
}
