import { Injectable } from '@nestjs/common';
import { Queryable, queryRows, TransactionRunner } from '@app/database';
import { AgentEndpoints, AgentStatus } from '../entities/agent.entity';
import { AgentHealthView, HealthStatus } from './health-view';

export { UNKNOWN_HEALTH } from './health-view';
export type { AgentHealthView } from './health-view';

/** Days of probe results and hourly counts kept. */
export const HEALTH_HISTORY_DAYS = 7;

export interface ClaimedProbe {
  agentId: string;
  endpoints: AgentEndpoints;
  status: AgentStatus;
}

export interface ProbeResult {
  agentId: string;
  ok: boolean;
  latencyMs: number | null;
  statusCode: number | null;
  error: string | null;
}

export interface HealthFlip {
  agentId: string;
  previous: HealthStatus;
  status: HealthStatus;
  lastError: string | null;
  uptime24h: number | null;
}

/** Sums of the hourly counts since `hours` hours before the hour of $6, plus this probe. */
const uptime = (hours: number) =>
  `(coalesce((SELECT sum(ok) FROM agent_health_hourly w WHERE w.agent_id = r.agent_id
                AND w.hour > date_trunc('hour', $6::timestamptz) - interval '${hours} hours'), 0) + r.ok::int)::float8
   / (coalesce((SELECT sum(total) FROM agent_health_hourly w WHERE w.agent_id = r.agent_id
                AND w.hour > date_trunc('hour', $6::timestamptz) - interval '${hours} hours'), 0) + 1)`;

/**
 * One batch of probe results in one statement: the history rows, the hourly counts, and the health
 * rows (streak, status, uptimes; the statement's snapshot does not see its own hourly upsert, so the
 * uptime adds this probe to the stored sums). Answers the rows whose status changed.
 */
const RECORD = `WITH r AS (
    SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::int[], $4::int[], $5::text[]) AS r(agent_id, ok, latency_ms, status_code, error)
  ), checks AS (
    INSERT INTO agent_health_checks (agent_id, checked_at, ok, latency_ms, status_code, error)
    SELECT agent_id, $6, ok, latency_ms, status_code, error FROM r
  ), hourly AS (
    INSERT INTO agent_health_hourly AS w (agent_id, hour, ok, total)
    SELECT agent_id, date_trunc('hour', $6::timestamptz), ok::int, 1 FROM r
    ON CONFLICT (agent_id, hour) DO UPDATE SET ok = w.ok + EXCLUDED.ok, total = w.total + 1
  )
  UPDATE agent_health h SET
    checked_at = $6, last_latency_ms = r.latency_ms, last_status_code = r.status_code, last_error = r.error,
    failures = CASE WHEN r.ok THEN 0 ELSE old.failures + 1 END,
    failing_since = CASE WHEN r.ok THEN NULL ELSE coalesce(old.failing_since, $6) END,
    status = CASE WHEN r.ok THEN 'up' WHEN old.failures + 1 >= $7 THEN 'down' ELSE old.status END,
    uptime_24h = ${uptime(24)}, uptime_7d = ${uptime(24 * HEALTH_HISTORY_DAYS)}
  FROM r, agent_health old
  WHERE h.agent_id = r.agent_id AND old.agent_id = r.agent_id
  RETURNING h.agent_id AS "agentId", old.status AS previous, h.status, h.last_error AS "lastError", h.uptime_24h AS "uptime24h"`;

/** The probes' schedule and results, and the health the API shows; all SQL of the health tables. */
@Injectable()
export class AgentHealthRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Claims up to `limit` agents due for a probe: moves their next probe `intervalS` later (+-10%
   * jitter) and answers them; SKIP LOCKED lets several workers take disjoint batches. A worker that
   * dies with a batch leaves those agents to the next round. Inactive agents are pushed on unprobed.
   */
  async claimDue(now: Date, limit: number, intervalS: number): Promise<ClaimedProbe[]> {
    return this.tx.query<ClaimedProbe>(
      `WITH due AS (
         SELECT agent_id FROM agent_health WHERE next_probe_at <= $1 ORDER BY next_probe_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE agent_health h SET next_probe_at = $1::timestamptz + make_interval(secs => $3::float8 * (0.9 + random() * 0.2))
         FROM due, agents a WHERE h.agent_id = due.agent_id AND a.id = h.agent_id
       RETURNING h.agent_id AS "agentId", a.endpoints, a.status`,
      [now, limit, intervalS],
    );
  }

  async record(sql: Queryable, results: ProbeResult[], now: Date, downAfter: number): Promise<HealthFlip[]> {
    if (results.length === 0) return [];
    return queryRows<HealthFlip>(sql, RECORD, [
      results.map((r) => r.agentId),
      results.map((r) => r.ok),
      results.map((r) => r.latencyMs),
      results.map((r) => r.statusCode),
      results.map((r) => r.error),
      now,
      downAfter,
    ]);
  }

  /** Active agents of `ids` failing every probe since `cutoff` or before: set inactive with `reason(failingSince)`. */
  async deactivateFailing(
    sql: Queryable,
    ids: string[],
    cutoff: Date,
  ): Promise<{ agentId: string; failingSince: Date; lastError: string | null; reason: string }[]> {
    return queryRows(
      sql,
      `UPDATE agents a SET status = 'inactive', updated_at = now(),
              inactive_reason = left('health: failed every probe since ' || to_char(h.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                                     || coalesce(' (last error: ' || h.last_error || ')', ''), 500)
         FROM agent_health h
        WHERE a.id = ANY($1::uuid[]) AND h.agent_id = a.id AND a.status = 'active' AND h.failing_since <= $2
       RETURNING a.id AS "agentId", h.failing_since AS "failingSince", h.last_error AS "lastError", a.inactive_reason AS reason`,
      [ids, cutoff],
    );
  }

  /** The owner reactivated the agent: a clean streak, status unknown, probed at once. */
  async reset(sql: Queryable, agentId: string, now: Date): Promise<void> {
    await sql.query(
      `UPDATE agent_health SET status = 'unknown', failures = 0, failing_since = NULL, next_probe_at = $2 WHERE agent_id = $1`,
      [agentId, now],
    );
  }

  /** Deletes probe results and hourly counts older than `cutoff`, at most `limit` of each. */
  async prune(cutoff: Date, limit: number): Promise<number> {
    const [row] = await this.tx.query<{ n: number }>(
      `WITH c AS (DELETE FROM agent_health_checks WHERE id IN
                    (SELECT id FROM agent_health_checks WHERE checked_at < $1 ORDER BY checked_at LIMIT $2) RETURNING 1),
            w AS (DELETE FROM agent_health_hourly WHERE (agent_id, hour) IN
                    (SELECT agent_id, hour FROM agent_health_hourly WHERE hour < $1 ORDER BY hour LIMIT $2) RETURNING 1)
       SELECT ((SELECT count(*) FROM c) + (SELECT count(*) FROM w))::int AS n`,
      [cutoff, limit],
    );
    return row.n;
  }

  async viewsOf(ids: string[]): Promise<Map<string, AgentHealthView>> {
    if (ids.length === 0) return new Map();
    const rows = await this.tx.query<AgentHealthView & { agentId: string; checkedAt: Date | null }>(
      `SELECT agent_id AS "agentId", status, uptime_24h AS "uptime24h", uptime_7d AS "uptime7d",
              last_latency_ms AS "lastLatencyMs", last_error AS "lastError", checked_at AS "checkedAt"
         FROM agent_health WHERE agent_id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map(({ agentId, checkedAt, ...v }) => [
        agentId,
        { ...v, checkedAt: checkedAt ? new Date(checkedAt).toISOString() : null },
      ]),
    );
  }
}
