import { Injectable } from '@nestjs/common';
import { ValidationException } from '@app/common';
import { EventPosition, OutboxEventsRepository } from '../outbox-events.repository';

/** An event's place in its agent's list: `<created_at in Unix microseconds>.<event id>`; pass it back as `after`. */
export const EVENT_CURSOR_PATTERN = /^(\d{1,18})\.(evt_[A-Za-z0-9_-]{1,36})$/;
export const MAX_EVENTS_PAGE = 100;

export interface AgentEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
  cursor: string;
}

export interface AgentEventsPage {
  events: AgentEvent[];
  /** Where the next page starts: the last event's cursor, or `after` again when there was none (null: nothing yet). */
  nextCursor: string | null;
}

function position(cursor: string): EventPosition {
  const m = EVENT_CURSOR_PATTERN.exec(cursor);
  if (!m)
    throw new ValidationException([
      { field: 'after', messages: ['after must be a cursor from this list (<microseconds>.<event id>)'] },
    ]);
  return { micros: BigInt(m[1]), id: m[2] };
}

/**
 * `GET /events`: the domain events of one agent (what its webhooks are sent), oldest first, paged
 * with a cursor: a listener polls with the last cursor it saw and resumes from it; a backfill
 * starts without one.
 */
@Injectable()
export class ListAgentEvents {
  constructor(private readonly repo: OutboxEventsRepository) {}

  async execute(agentId: string, q: { after?: string; limit: number }): Promise<AgentEventsPage> {
    const after = q.after ? position(q.after) : null;
    const rows = await this.repo.listForAgent(agentId, after, Math.min(Math.max(1, q.limit), MAX_EVENTS_PAGE));
    const events = rows.map((r) => ({
      id: r.id,
      type: r.type,
      data: r.data,
      createdAt: r.createdAt,
      cursor: `${r.micros}.${r.id}`,
    }));
    return { events, nextCursor: events.length ? events[events.length - 1].cursor : (q.after ?? null) };
  }
}
