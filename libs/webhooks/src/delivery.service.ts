import { activeTraceparent } from '@app/tracing';
import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { Queryable } from '@app/database';
import { jobId, JobProducer } from '@app/queues';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export const DELIVERY_ATTEMPTS = 5;

/** `deferred`: the attempt waits its destination's turn (WEBHOOK_HOST_CONCURRENCY); nothing was sent, its job is delayed. */
export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'cancelled' | 'skipped' | 'deferred';

/** Retry-After in seconds or as an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Every outbound delivery (resolutions §9): webhook events to subscriptions and execution results
 * to callback URLs. One Postgres row (WebhookDeliveriesRepository) and one job per attempt; the job
 * runs DeliverAttempt. Rows, not Redis, hold the schedule: the sweeper re-enqueues any due row whose
 * job was lost, and a claim that outlived a dead worker. This service schedules callbacks, wakes the
 * worker, and answers the sweeper.
 */
@Injectable()
export class DeliveryService {
  constructor(
    private readonly repo: WebhookDeliveriesRepository,
    private readonly jobs: JobProducer,
    private readonly clock: Clock,
  ) {}

  /**
   * Inside the transaction that finishes an execution: its result becomes due at `callbackUrl` now.
   * `body` null: the execution completed, and `{requestId, status: 'completed', output}` is built
   * from its stored output when sent (the row holds no copy of it).
   */
  scheduleCallback(
    manager: Queryable,
    c: { executionId: string; url: string; body: Record<string, unknown> | null },
  ): Promise<string | null> {
    return this.repo.insertCallback(manager, {
      id: newId('dlv'),
      executionId: c.executionId,
      url: c.url,
      body: c.body === null ? null : JSON.stringify(c.body),
      traceparent: activeTraceparent(),
      at: this.clock.now(),
    });
  }

  /** After commit: wake the worker for one attempt (deterministic job id; the sweeper covers a lost job). */
  async wake(id: string, delay: number): Promise<void> {
    await this.jobs.wake('webhook.deliver', { deliveryId: id }, { jobId: jobId('webhook.deliver', id), delay });
  }

  /** Attempts that are due and have no live claim, nor a job waiting its turn (for the sweeper). */
  due(limit = 500): Promise<{ id: string; dueAt: Date }[]> {
    return this.repo.due(this.clock.now(), limit);
  }

  /** Outbox events not yet fanned out (for the sweeper: the relay's notification or job was lost). */
  unpublishedEvents(olderThanMs = 2_000, limit = 500): Promise<{ id: string; createdAt: Date }[]> {
    return this.repo.unpublishedEvents(new Date(this.clock.nowMs() - olderThanMs), limit);
  }
}
