import {
  AgentHealthRepository,
  GetAgentHealth,
  PruneHealthHistory,
  RECOMMEND_CANDIDATES,
  RecommendAgents,
} from '@app/agents';
import { Clock } from '@app/common';
import { Domain, seedAgent, startDomain } from '../support/medium';
import { waitFor } from '../support/processes';

/** Issue 32, review findings 3 and 5: the health record under concurrency; the hourly history and its prune. */
describe('agent health records (medium)', () => {
  let domain: Domain;
  let repo: AgentHealthRepository;

  beforeAll(async () => {
    domain = await startDomain();
    repo = domain.get(AgentHealthRepository);
  });
  afterAll(async () => {
    await domain.close();
  });

  const fail = (agentId: string) => ({ agentId, ok: false, latencyMs: null, statusCode: 503, error: 'HTTP 503' });
  const row = async (agentId: string) =>
    (
      await domain.ds.query(
        `SELECT h.status, h.failures, h.uptime_24h AS "uptime24h", w.probes, w.ups
           FROM agent_health h JOIN agent_health_hourly w USING (agent_id) WHERE agent_id = $1`,
        [agentId],
      )
    )[0];

  it('two probers recording the same agent at once: both probes count, from the row as the first left it', async () => {
    const id = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run' });
    const now = new Date();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstRecorded!: () => void;
    const recorded = new Promise<void>((r) => (firstRecorded = r));
    // The first prober records and holds its transaction open; the second records meanwhile.
    const first = domain.ds.transaction(async (m) => {
      const flips = await repo.record(m, [fail(id)], now, 1);
      firstRecorded();
      await held;
      return flips;
    });
    await recorded;
    let secondDone = false;
    const second = domain.ds.transaction((m) => repo.record(m, [fail(id)], now, 1)).finally(() => (secondDone = true));
    // The second waits for the first's lock on the row (it does not read a stale row and overwrite).
    const waiting = async () =>
      (
        await domain.ds.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        )
      )[0].n as number;
    await waitFor(async () => (await waiting()) > 0, 'the second waiting on the lock');
    expect(secondDone).toBe(false);
    release();
    const [a, b] = await Promise.all([first, second]);
    // One flip (unknown -> down), so one event: the second sees the status the first committed.
    expect(a).toEqual([expect.objectContaining({ previous: 'unknown', status: 'down' })]);
    expect(b).toEqual([expect.objectContaining({ previous: 'down', status: 'down', uptime24h: 0 })]);
    expect(await row(id)).toEqual({ status: 'down', failures: 2, uptime24h: 0, probes: 2, ups: 0 });
  });

  it('an agent given twice in one batch is recorded twice, in order', async () => {
    const id = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run' });
    const ok = { agentId: id, ok: true, latencyMs: 12, statusCode: 200, error: null };
    const flips = await domain.ds.transaction((m) => repo.record(m, [fail(id), ok], new Date(), 1));
    expect(flips.map((f) => [f.previous, f.status])).toEqual([
      ['unknown', 'down'],
      ['down', 'up'],
    ]);
    expect(await row(id)).toEqual({ status: 'up', failures: 0, uptime24h: 0.5, probes: 2, ups: 1 });
  });

  it('keeps the history by the hour (at most 7 days), shows it, and prunes what is older', async () => {
    const id = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run' });
    const hour = (h: number) => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - h * 3_600_000);
    await domain.ds.query(
      `INSERT INTO agent_health_hourly (agent_id, hour, probes, ups, latency_ms_sum, latency_count)
       SELECT $1, $2::timestamptz - make_interval(hours => h), 12, 12 - (h % 3), 120, 12 - (h % 3)
         FROM generate_series(1, 200) h`,
      [id, hour(0)],
    );
    const ok = { agentId: id, ok: true, latencyMs: 30, statusCode: 200, error: null };
    await domain.ds.transaction((m) => repo.record(m, [ok], new Date(), 1));
    const history = await domain.get(GetAgentHealth).execute(id);
    expect(history.health).toMatchObject({ status: 'up', lastLatencyMs: 30, lastError: null });
    expect(history.hours).toHaveLength(168);
    expect(history.hours[167]).toEqual({ hour: hour(0).toISOString(), probes: 1, ups: 1, avgLatencyMs: 30 });
    expect(history.hours[166]).toEqual({ hour: hour(1).toISOString(), probes: 12, ups: 11, avgLatencyMs: 11 });
    // The 24 h uptime is the buckets' sum: the current hour and the 23 before it.
    const ups = 1 + Array.from({ length: 23 }, (_, i) => 12 - ((i + 1) % 3)).reduce((x, y) => x + y, 0);
    expect(history.health.uptime24h).toBeCloseTo(ups / (1 + 23 * 12), 10);
    const { deleted } = await new PruneHealthHistory(repo, domain.app.get(Clock)).execute();
    expect(deleted).toBeGreaterThanOrEqual(200 - 168);
    const [{ n, oldest }] = await domain.ds.query(
      `SELECT count(*)::int AS n, min(hour) > now() - interval '7 days' AS oldest FROM agent_health_hourly WHERE agent_id = $1`,
      [id],
    );
    expect(n).toBeLessThanOrEqual(169);
    expect(oldest).toBe(true);
  });

  it('recommend leaves hidden agents out before picking its candidates: they cannot crowd out live ones', async () => {
    const capability = { id: 'summarize', name: 'Summarize quarterly ledgers', description: 'Summarizes ledgers' };
    const hidden: string[] = [];
    for (let i = 0; i < RECOMMEND_CANDIDATES + 5; i++)
      hidden.push(await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run', capability }));
    const live: string[] = [];
    for (let i = 0; i < 3; i++) live.push(await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run', capability }));
    // The older (better-ranked) ones have failed every probe for 2 hours: hidden (HEALTH_HIDE_AFTER_S 1 hour).
    await domain.ds.query(
      `UPDATE agent_health SET status = 'down', failures = 20, failing_since = now() - interval '2 hours'
        WHERE agent_id = ANY($1::uuid[])`,
      [hidden],
    );
    const found = await domain.get(RecommendAgents).execute('summarize quarterly ledgers', 5);
    expect(found.map((r) => r.agent.id).sort()).toEqual([...live].sort());
  });
});

/** Review of issue 32 (findings 6 and 7): agents not active are not probed; a stale probe does not deactivate. */
describe('agent health schedule (medium)', () => {
  let domain: Domain;
  let repo: AgentHealthRepository;

  beforeAll(async () => {
    domain = await startDomain();
    repo = domain.get(AgentHealthRepository);
  });
  afterAll(async () => {
    await domain.close();
  });

  const nextProbe = async (id: string) =>
    (await domain.ds.query(`SELECT next_probe_at::text AS at FROM agent_health WHERE agent_id = $1`, [id]))[0].at;
  const setStatus = (id: string, status: string) =>
    domain.ds.query(`UPDATE agents SET status = $2 WHERE id = $1`, [id, status]);

  it('claims an agent that is not active once, then never until it is active again', async () => {
    const id = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run' });
    await setStatus(id, 'inactive');
    const now = new Date(Date.now() + 60_000);
    const claimed = await repo.claimDue(now, 10_000, 300);
    expect(claimed.find((c) => c.agentId === id)?.status).toBe('inactive');
    expect(await nextProbe(id)).toBe('infinity');
    expect((await repo.claimDue(new Date(Date.now() + 3_600_000), 10_000, 300)).some((c) => c.agentId === id)).toBe(
      false,
    );
    await setStatus(id, 'active');
    expect(new Date(await nextProbe(id)).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await repo.claimDue(new Date(Date.now() + 1_000), 10_000, 300)).some((c) => c.agentId === id)).toBe(true);
  });

  it('does not deactivate on a probe claimed before the agent was made due again (reactivated meanwhile)', async () => {
    const id = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/run' });
    await domain.ds.query(`UPDATE agent_health SET failing_since = now() - interval '4 days' WHERE agent_id = $1`, [
      id,
    ]);
    const cutoff = new Date(Date.now() - 3 * 86_400_000);
    const deactivate = (now: Date) => domain.ds.transaction((m) => repo.deactivateFailing(m, [id], cutoff, now));
    // Claimed (next probe in the future), then the owner made it due again before the result was recorded.
    await domain.ds.query(`UPDATE agent_health SET next_probe_at = now() - interval '1 second' WHERE agent_id = $1`, [
      id,
    ]);
    expect(await deactivate(new Date())).toEqual([]);
    // Claimed and not touched since: the failing streak sets it inactive.
    await domain.ds.query(`UPDATE agent_health SET next_probe_at = now() + interval '5 minutes' WHERE agent_id = $1`, [
      id,
    ]);
    expect((await deactivate(new Date())).map((d) => d.agentId)).toEqual([id]);
  });
});
