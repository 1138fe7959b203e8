import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { newId } from '@app/common';
import { activeTraceparent } from '@app/tracing';

/** Event names of the spec (§6). */
export type EventType = 'execution.completed' | 'execution.failed' | 'dispute.filed' | 'dispute.resolved' | 'escrow.released' | 'withdrawal.completed' | 'withdrawal.failed';

export const EVENT_TYPES: readonly EventType[] = [
  'execution.completed',
  'execution.failed',
  'dispute.filed',
  'dispute.resolved',
  'escrow.released',
  'withdrawal.completed',
  'withdrawal.failed',
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
  async record(manager: Queryable, type: EventType, agentId: string | null, data: Record<string, unknown>): Promise<string> {
    const id = newId('evt');
    await manager.query(`INSERT INTO outbox_events (id, type, agent_id, data, traceparent) VALUES ($1, $2, $3, $4, $5)`, [id, type, agentId, data, activeTraceparent()]);
    return id;
  }
}
