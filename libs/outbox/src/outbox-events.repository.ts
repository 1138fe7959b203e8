import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@app/database';

/** An event row as the list reads it: `micros` is created_at in Unix microseconds (exact, as text). */
export interface AgentEventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
  micros: string;
}

/** Where a page starts: after the event with this (created_at in microseconds, id). */
export interface EventPosition {
  micros: bigint;
  id: string;
}

// Microseconds, not a Date: created_at keeps them, and a cursor rounded to milliseconds would skip or repeat events.
const LIST = `SELECT id, type, data, created_at AS "createdAt", (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
  FROM outbox_events
  WHERE agent_id = $1 AND ($2::bigint IS NULL OR (created_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::varchar))
  ORDER BY created_at, id
  LIMIT $4`;

/** Reads of `outbox_events` by agent (the table the outbox writes), through its (agent_id, created_at) index. */
@Injectable()
export class OutboxEventsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** The agent's events after `after` (from the first without it), oldest first, at most `limit`. */
  listForAgent(agentId: string, after: EventPosition | null, limit: number): Promise<AgentEventRow[]> {
    return this.tx.query<AgentEventRow>(LIST, [agentId, after ? after.micros.toString() : null, after?.id ?? '', limit]);
  }
}
