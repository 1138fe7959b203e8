import { Injectable } from '@nestjs/common';
import { Queryable, queryRows, TransactionRunner } from '@app/database';
import { AgentEndpoints, AgentStatus } from '../entities/agent.entity';
import { AgentHealthView, HealthHour, HealthStatus } from './health-view';

export { UNKNOWN_HEALTH } from './health-view';
export type { AgentHealthView, HealthHour } from './health-view';

/** Days of hourly buckets kept (the 7-day uptime's window). */
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

/** The share of probes answered over the last `hours` hours (the hour of $2 included), from the hourly buckets. */
const uptime = (hours: number) =>
  `(SELECT sum(w.ups)::float8 / nullif(sum(w.probes), 0) FROM agent_health_hourly w
     WHERE w.agent_id = h.agent_id AND w.hour > date_trunc('hour', $2::timestamptz) - interval '${hours} hours')`;

/** The health rows of a batch, locked in id order (two probers recording the same agents cannot deadlock). */
const LOCK = `SELECT agent_id AS "agentId", status FROM agent_health WHERE agent_id = ANY($1::uuid[])
  ORDER BY agent_id FOR UPDATE`;

/** The batch added to the hour's bucket of each agent: probes, ups, and the latency of those answered. */
const HOURLY = `INSERT INTO agent_health_hourly AS w (agent_id, hour, probes, ups, latency_ms_sum, latency_count)
  SELECT agent_id, date_trunc('hour', $4::timestamptz), 1, ok::int, coalesce(latency_ms, 0), (latency_ms IS NOT NULL)::int
    FROM unnest($1::uuid[], $2::boolean[], $3::int[]) AS r(agent_id, ok, latency_ms)
  ON CONFLICT (agent_id, hour) DO UPDATE SET probes = w.probes + 1, ups = w.ups + EXCLUDED.ups,
     latency_ms_sum = w.latency_ms_sum + EXCLUDED.latency_ms_sum, latency_count = w.latency_count + EXCLUDED.latency_count`;

/**
 * The health rows, computed from each row as it is now (the rows are locked, and this statement
 * sees the buckets just written): the last probe, the streak, the status and the uptimes.
 */
const UPDATE = `UPDATE agent_health h SET
    checked_at = $2, last_latency_ms = r.latency_ms, last_status_code = r.status_code, last_error = r.error,
    failures = CASE WHEN r.ok THEN 0 ELSE h.failures + 1 END,
    failing_since = CASE WHEN r.ok THEN NULL ELSE coalesce(h.failing_since, $2) END,
    status = CASE WHEN r.ok THEN 'up' WHEN h.failures + 1 >= $3 THEN 'down' ELSE h.status END,
    uptime_24h = ${uptime(24)}, uptime_7d = ${uptime(24 * HEALTH_HISTORY_DAYS)}
  FROM unnest($1::uuid[], $4::boolean[], $5::int[], $6::int[], $7::text[]) AS r(agent_id, ok, latency_ms, status_code, error)
  WHERE h.agent_id = r.agent_id
  RETURNING h.agent_id AS "agentId", h.status, h.last_error AS "lastError", h.uptime_24h AS "uptime24h"`;

/** The probes' schedule and results, and the health the API shows; all SQL of the health tables. */
@Injectable()
export class AgentHealthRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Claims up to `limit` agents due for a probe: moves their next probe `intervalS` later (+-10%
   * jitter) and answers them; SKIP LOCKED lets several workers take disjoint batches. A worker that
   * dies with a batch leaves those agents to the next round. An agent not active is answered
   * unprobed and not due again until it is active (a trigger on `agents` makes it due then).
   */
  async claimDue(now: Date, limit: number, intervalS: number): Promise<ClaimedProbe[]> {
    return this.tx.query<ClaimedProbe>(
      `WITH due AS (
         SELECT agent_id FROM agent_health WHERE next_probe_at <= $1 ORDER BY next_probe_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE agent_health h SET next_probe_at = CASE WHEN a.status = 'active'
           THEN $1::timestamptz + make_interval(secs => $3::float8 * (0.9 + random() * 0.2)) ELSE 'infinity' END
         FROM due, agents a WHERE h.agent_id = due.agent_id AND a.id = h.agent_id
       RETURNING h.agent_id AS "agentId", a.endpoints, a.status`,
      [now, limit, intervalS],
    );
  }

  /**
   * Records probe results in the caller's transaction: locks the agents' health rows (id order),
   * adds each result to its hourly bucket, and updates the rows from their current values, so two
   * probers recording the same agent at once count both probes. Answers each agent's status before
   * and after. An agent given twice is recorded twice, in order.
   */
  async record(sql: Queryable, results: ProbeResult[], now: Date, downAfter: number): Promise<HealthFlip[]> {
    const flips: HealthFlip[] = [];
    for (let rest = results; rest.length > 0;) {
      const seen = new Set<string>();
      const batch = rest.filter((r) => !seen.has(r.agentId) && seen.add(r.agentId));
      const taken = new Set(batch);
      rest = rest.filter((r) => !taken.has(r));
      flips.push(...(await this.recordUnique(sql, batch, now, downAfter)));
    }
    return flips;
  }

  private async recordUnique(sql: Queryable, results: ProbeResult[], now: Date, downAfter: number) {
    const ids = results.map((r) => r.agentId);
    const ok = results.map((r) => r.ok);
    const latency = results.map((r) => r.latencyMs);
    const before = await queryRows<{ agentId: string; status: HealthStatus }>(sql, LOCK, [ids]);
    await sql.query(HOURLY, [ids, ok, latency, now]);
    const after = await queryRows<Omit<HealthFlip, 'previous'>>(sql, UPDATE, [
      ids,
      now,
      downAfter,
      ok,
      latency,
      results.map((r) => r.statusCode),
      results.map((r) => r.error),
    ]);
    const previous = new Map(before.map((b) => [b.agentId, b.status]));
    return after.map((a): HealthFlip => ({ ...a, previous: previous.get(a.agentId)! }));
  }

  /**
   * Active agents of `ids` failing every probe since `cutoff` or before: set inactive with
   * `reason(failingSince)`. Not one made due again since its probe was claimed (its next probe at
   * `now` or before: the owner reactivated it or changed its endpoints meanwhile): that probe
   * speaks of what the agent was, and the next one decides.
   */
  async deactivateFailing(
    sql: Queryable,
    ids: string[],
    cutoff: Date,
    now: Date,
  ): Promise<{ agentId: string; failingSince: Date; lastError: string | null; reason: string }[]> {
    return queryRows(
      sql,
      `UPDATE agents a SET status = 'inactive', updated_at = now(),
              inactive_reason = left('health: failed every probe since ' || to_char(h.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                                     || coalesce(' (last error: ' || h.last_error || ')', ''), 500)
         FROM agent_health h
        WHERE a.id = ANY($1::uuid[]) AND h.agent_id = a.id AND a.status = 'active' AND h.failing_since <= $2
          AND h.next_probe_at > $3
       RETURNING a.id AS "agentId", h.failing_since AS "failingSince", h.last_error AS "lastError", a.inactive_reason AS reason`,
      [ids, cutoff, now],
    );
  }

  /** Claimed agents not probed this time (their host's backlog was full): due again at `at`. */
  async defer(agentIds: string[], at: Date): Promise<void> {
    await this.tx.query(`UPDATE agent_health SET next_probe_at = $2 WHERE agent_id = ANY($1::uuid[])`, [agentIds, at]);
  }

  /**
   * The owner reactivated the agent or changed its endpoints: its next probe is due now. Status and
   * failing streak stay as they are (only a successful probe ends a streak).
   */
  async probeSoon(agentId: string, now: Date): Promise<void> {
    await this.tx.query(`UPDATE agent_health SET next_probe_at = least(next_probe_at, $2) WHERE agent_id = $1`, [
      agentId,
      now,
    ]);
  }

  /** Deletes hourly buckets older than `cutoff`, at most `limit` (oldest first, through the hour index). */
  async prune(cutoff: Date, limit: number): Promise<number> {
    const [row] = await this.tx.query<{ n: number }>(
      `WITH w AS (DELETE FROM agent_health_hourly WHERE (agent_id, hour) IN
                    (SELECT agent_id, hour FROM agent_health_hourly WHERE hour < $1 ORDER BY hour LIMIT $2) RETURNING 1)
       SELECT count(*)::int AS n FROM w`,
      [cutoff, limit],
    );
    return row.n;
  }

  /** An agent's hourly buckets since `since`, oldest first (at most 24 x HEALTH_HISTORY_DAYS). */
  async hourly(agentId: string, since: Date): Promise<HealthHour[]> {
    const rows = await this.tx.query<{ hour: Date; probes: number; ups: number; avg: number | null }>(
      `SELECT hour, probes, ups, CASE WHEN latency_count > 0 THEN round(latency_ms_sum::numeric / latency_count)::int END AS avg
         FROM agent_health_hourly WHERE agent_id = $1 AND hour >= date_trunc('hour', $2::timestamptz) ORDER BY hour`,
      [agentId, since],
    );
    return rows.map((r) => ({
      hour: new Date(r.hour).toISOString(),
      probes: r.probes,
      ups: r.ups,
      avgLatencyMs: r.avg,
    }));
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
