import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '@app/common';
import { OutboxEventEntity } from './outbox-event.entity';

/** Event names of the spec (§6). */
export type EventType =
  | 'execution.completed'
  | 'execution.failed'
  | 'dispute.filed'
  | 'dispute.resolved'
  | 'escrow.released'
  | 'withdrawal.completed'
  | 'withdrawal.failed';

export const EVENT_TYPES: readonly EventType[] = [
  'execution.completed',
  'execution.failed',
  'dispute.filed',
  'dispute.resolved',
  'escrow.released',
  'withdrawal.completed',
  'withdrawal.failed',
];

/** The one event publisher: every domain records events through it, inside its transaction. */
@Injectable()
export class OutboxService {
  async record(manager: EntityManager, type: EventType, agentId: string | null, data: Record<string, unknown>): Promise<string> {
    const id = newId('evt');
    await manager.insert(OutboxEventEntity, { id, type, agentId, data } as Partial<OutboxEventEntity> as OutboxEventEntity);
    return id;
  }
}
