import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { newId } from '@app/common';

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
 * them for fan-out to webhook subscriptions; the sweeper re-relays any left unpublished.
 */
@Injectable()
export class OutboxService {
  async record(manager: Queryable, type: EventType, agentId: string | null, data: Record<string, unknown>): Promise<string> {
    const id = newId('evt');
    await manager.query(`INSERT INTO outbox_events (id, type, agent_id, data) VALUES ($1, $2, $3, $4)`, [id, type, agentId, data]);
    return id;
  }
}
