import { Injectable } from '@nestjs/common';
import { Queryable, TransactionRunner } from '@app/database';

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

const MICROS = (at: string) => `(extract(epoch FROM ${at}) * 1000000)::bigint::text`;
const AT = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;

/**
 * created_at is the inserting transaction's start (now()), and transactions commit in any order: an
 * event still uncommitted may sort before one already listed, and a reader past it would never see
 * it. So a page ends before the horizon: the start of the oldest transaction open in this database
 * when the list began (its events, and those of any later one, can only sort after it). Read in a
 * statement of its own before the list's: a transaction that commits between the two is seen by
 * the list. What is listed is final, and a cursor never skips an event; the price is that a long
 * transaction of agora's own processes (application_name agora-*, the only writers of events) holds
 * the list back until it ends; another client's (a backup's pg_dump, a psql session) does not.
 * Positions are microseconds, as created_at keeps them (milliseconds would skip or repeat events).
 */
const HORIZON = `SELECT ${MICROS('least(now(), min(xact_start))')} AS micros FROM pg_stat_activity
  WHERE datname = current_database() AND backend_type = 'client backend' AND application_name LIKE 'agora%'
    AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`;

const LIST = `SELECT id, type, data, created_at AS "createdAt", ${MICROS('created_at')} AS micros
  FROM outbox_events
  WHERE agent_id = $1 AND created_at < ${AT('$5')}
    AND ($2::bigint IS NULL OR (created_at, id) > (${AT('$2')}, $3::varchar))
  ORDER BY created_at, id
  LIMIT $4`;

/** The SQL of `outbox_events`: the outbox's insert, and reads by agent through its (agent_id, created_at) index. */
@Injectable()
export class OutboxEventsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** Inside the caller's transaction (issued before its first await: a pipelined caller keeps its order). */
  async insert(
    manager: Queryable,
    e: { id: string; type: string; agentId: string | null; data: Record<string, unknown>; traceparent: string | null },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO outbox_events (id, type, agent_id, data, traceparent) VALUES ($1, $2, $3, $4, $5)`,
      [e.id, e.type, e.agentId, e.data, e.traceparent],
    );
  }

  /** The agent's events after `after` (from the first without it), oldest first, at most `limit`, before the horizon. */
  async listForAgent(agentId: string, after: EventPosition | null, limit: number): Promise<AgentEventRow[]> {
    const [{ micros: horizon }] = await this.tx.query<{ micros: string }>(HORIZON);
    return this.tx.query<AgentEventRow>(LIST, [
      agentId,
      after ? after.micros.toString() : null,
      after?.id ?? '',
      limit,
      horizon,
    ]);
  }
}
