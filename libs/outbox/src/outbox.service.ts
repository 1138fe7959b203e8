import { Injectable, Logger } from '@nestjs/common';
import { Queryable } from '@app/database';
import { newId } from '@app/common';
import { activeTraceparent } from '@app/tracing';
import { OutboxEventsRepository } from './outbox-events.repository';

/** Event names of the spec (§6). */
export type EventType =
  | 'execution.completed'
  | 'execution.failed'
  | 'dispute.filed'
  | 'dispute.resolved'
  | 'escrow.released'
  | 'withdrawal.completed'
  | 'withdrawal.failed'
  | 'agent.health_changed';

export const EVENT_TYPES: readonly EventType[] = [
  'execution.completed',
  'execution.failed',
  'dispute.filed',
  'dispute.resolved',
  'escrow.released',
  'withdrawal.completed',
  'withdrawal.failed',
  'agent.health_changed',
];

/** The Postgres channel a trigger on `outbox_events` notifies with each new event id (delivered at commit). */
export const OUTBOX_CHANNEL = 'agora_outbox';

/**
 * The one event publisher: every domain records events through it, inside the transaction of
 * the change they report. After commit the worker's relay (LISTEN on OUTBOX_CHANNEL) queues
 * them for fan-out to webhook subscriptions; the sweeper re-relays any left unpublished. The
 * event keeps the traceparent of the span that recorded it: its deliveries' spans link to it.
 */
@Injectable()
export class OutboxService {
  private readonly logger = new Logger('DomainEvents');

  constructor(private readonly repo: OutboxEventsRepository) {}

  /**
   * Records `type` and logs it: one line per domain event, named by its type, at its level
   * (EVENT_LOG_LEVEL). `logged` adds fields to the line only (the execution's cost), not to the event.
   */
  async record(
    manager: Queryable,
    type: EventType,
    agentId: string | null,
    data: Record<string, unknown>,
    logged: Record<string, unknown> = {},
  ): Promise<string> {
    const id = newId('evt');
    await this.repo.insert(manager, { id, type, agentId, data, traceparent: activeTraceparent() });
    this.logger[EVENT_LOG_LEVEL[type]]({ event: type, eventId: id, agentId, ...logFields(data), ...logged }, type);
    return id;
  }
}

/** A failure of an agent or a payout is a warning (the platform works; someone should look), never an error. */
export const EVENT_LOG_LEVEL: Record<EventType, 'log' | 'warn'> = {
  'execution.completed': 'log',
  'execution.failed': 'warn',
  'dispute.filed': 'log',
  'dispute.resolved': 'log',
  'escrow.released': 'log',
  'withdrawal.completed': 'log',
  'withdrawal.failed': 'warn',
  'agent.health_changed': 'warn',
};

/** The event's facts for the line: a caller's free text (a dispute's reason, evidence) stays out; long text is cut. */
function logFields(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'reason' || key === 'evidence') continue;
    // An event's requestId is its execution's; the line's requestId is the HTTP request's (pino-http).
    out[key === 'requestId' ? 'executionId' : key] =
      typeof value === 'string' && value.length > 200 ? `${value.slice(0, 200)}...` : value;
  }
  return out;
}
