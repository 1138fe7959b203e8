import { Client } from 'pg';
import { Wallet } from 'ethers';
import { LATENCY_BOUNDS, latencyBucket, RollUpSeries } from '@app/analytics';
import { AppConfig } from '@app/config';
import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const cut = (fee: bigint) => (fee * 5n + 50n) / 100n;
const micros = (s: string) => BigInt(s.replace('.', ''));
const usdc = (m: bigint) => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;
const nearestRank = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];
const hourOf = (t: number) => Math.floor(t / HOUR) * HOUR;
const dayOf = (t: number) => Math.floor(t / DAY) * DAY;
/** A series' executions and volume (micro-USDC) over all its points: a run at an hour's end may fall in the next. */
const sum = (points: { executions: number; volume: string }[]) => ({
  executions: points.reduce((n, p) => n + p.executions, 0),
  volume: points.reduce((v, p) => v + micros(p.volume), 0n),
});

/** One execution the test made: its agent, payer, outcome, time, charge and when it is made to have ended. */
interface Run {
  agent: string;
  payer: string;
  ok: boolean;
  timeMs: number;
  gross: bigint;
  earnings: bigint;
  endedAt: number;
}

/**
 * The console's time series (issue 35), from executions the test pays for itself: some moved back
 * three hours and two days, some failed, two agents and three payers. The worker's roll-up is run
 * by hand here (the api process does not run it), so each assertion follows a roll-up the test made.
 */
describe('time series (e2e)', () => {
  let env: ApiWithAgent;
  let second: string;
  const payers = [newWallet(), newWallet(), newWallet()];
  const runs: Run[] = [];
  const rollUp = () => env.api.app.get(RollUpSeries).execute();
  const get = (path: string) => env.api.request('GET', `/api/v1/analytics/${path}`);

  async function run(agent: string, payer: Wallet, input: Record<string, unknown>): Promise<Run> {
    const h = await x402Header(payer, { amount: 11_000n, payTo: env.api.config.platformWallet });
    const r = await env.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agent, capabilityId: 'translate', input: { text: 'hi', ...input } },
      headers: { [h.name]: h.value },
    });
    const [row] = await env.ds.query(
      `SELECT id, execution_time_ms AS ms, completed_at AS at FROM executions WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [agent],
    );
    const ok = r.status === 200;
    const fee = ok ? micros(r.body.data.cost.agentFee) : 0n;
    const gross = ok ? fee + micros(r.body.data.cost.platformFee) : 0n;
    const done: Run = {
      agent,
      payer: payer.address.toLowerCase(),
      ok,
      timeMs: row.ms,
      gross,
      earnings: ok ? fee - cut(fee) : 0n,
      endedAt: new Date(row.at).getTime(),
    };
    runs.push(done);
    return Object.assign(done, { id: row.id as string });
  }

  /** Makes a run look as if it ended `ageMs` ago: its execution and its charge. */
  async function age(r: Run & { id?: string }, ageMs: number) {
    const at = new Date(Date.now() - ageMs);
    await env.ds.query(`UPDATE executions SET completed_at = $2 WHERE id = $1`, [r.id, at]);
    await env.ds.query(
      `UPDATE transactions SET created_at = $2 WHERE id = (SELECT transaction_id FROM executions WHERE id = $1)`,
      [r.id, at],
    );
    r.endedAt = at.getTime();
  }

  beforeAll(async () => {
    env = await startApiWithAgent({ EXECUTION_TIMEOUT_MS: '1000', SERIES_LAG_MS: '0' });
    const res = await registerAgent(env.api, newWallet(), {
      endpoints: { execution: env.agentServer.url },
      capabilities: [capabilityPayload()],
    });
    second = res.body.data.id;
    for (const [i, delayMs] of [0, 20, 40, 60, 80].entries()) await run(env.agentId, payers[i % 2], { delayMs });
    await run(env.agentId, payers[0], { mode: 'fail' });
    await run(second, payers[2], {});
    await age(await run(env.agentId, payers[2], { delayMs: 10 }), 3 * HOUR);
    await age(await run(second, payers[0], {}), 3 * HOUR);
    await age(await run(env.agentId, payers[1], { delayMs: 30 }), 2 * DAY);
  });
  afterAll(() => env.stop());

  /** The platform's buckets the test expects, from its own runs. */
  function platform(bucketOf: (t: number) => number) {
    const byBucket = new Map<number, Run[]>();
    for (const r of runs) byBucket.set(bucketOf(r.endedAt), [...(byBucket.get(bucketOf(r.endedAt)) ?? []), r]);
    return new Map(
      [...byBucket].map(([at, rs]) => [
        new Date(at).toISOString(),
        {
          at: new Date(at).toISOString(),
          executions: rs.length,
          succeeded: rs.filter((r) => r.ok).length,
          volume: usdc(rs.reduce((s, r) => s + r.gross, 0n)),
          buyers: new Set(rs.map((r) => r.payer)).size,
          sellers: new Set(rs.map((r) => r.agent)).size,
        },
      ]),
    );
  }

  it('before a roll-up the series are empty and say so', async () => {
    const r = await get('platform/series');
    expect(r.status).toBe(200);
    expect(r.body.data.completeTo).toBeNull();
    expect(r.body.data.points).toHaveLength(24);
    expect(r.body.data.points.every((p: { executions: number }) => p.executions === 0)).toBe(true);
  });

  it('per hour and per day, the platform series counts what the test did, each run once however often it rolls up', async () => {
    await rollUp();
    await rollUp();
    for (const [bucket, from, bucketOf, n] of [
      ['hour', new Date(Date.now() - 5 * HOUR), hourOf, 6],
      ['day', new Date(Date.now() - 4 * DAY), dayOf, 5],
    ] as const) {
      const r = await get(`platform/series?bucket=${bucket}&from=${from.toISOString()}`);
      expect(r.status).toBe(200);
      const expected = platform(bucketOf);
      expect(r.body.data.points).toHaveLength(n);
      for (const p of r.body.data.points)
        expect(p).toEqual(
          expected.get(p.at) ?? { at: p.at, executions: 0, succeeded: 0, volume: '0.000000', buyers: 0, sellers: 0 },
        );
      const inRange = runs.filter((x) => x.endedAt >= bucketOf(from.getTime()));
      expect(r.body.data.points.reduce((s: number, p: { executions: number }) => s + p.executions, 0)).toBe(
        inRange.length,
      );
    }
    const complete = Date.parse((await get('platform/series')).body.data.completeTo);
    expect(complete).toBeGreaterThanOrEqual(Math.max(...runs.map((r) => r.endedAt)));
  });

  it("an agent's series: executions, success rate, latency percentiles of its successes, volume and earnings", async () => {
    await rollUp();
    // From the day of the oldest run (a midnight may have passed since it was made).
    const oldest = dayOf(Math.min(...runs.map((x) => x.endedAt)));
    const r = await get(`agent/${env.agentId}/series?bucket=day&from=${new Date(oldest).toISOString()}`);
    expect(r.status).toBe(200);
    expect(r.body.data.points).toHaveLength((dayOf(Date.now()) - oldest) / DAY + 1);
    const mine = runs.filter((x) => x.agent === env.agentId);
    for (const p of r.body.data.points) {
      const inDay = mine.filter((x) => dayOf(x.endedAt) === Date.parse(p.at));
      const times = inDay.filter((x) => x.ok).map((x) => x.timeMs);
      const bound = (pct: number) => LATENCY_BOUNDS[latencyBucket(nearestRank(times, pct))];
      expect(p).toEqual({
        at: p.at,
        executions: inDay.length,
        succeeded: times.length,
        successRate: inDay.length ? Math.round((times.length / inDay.length) * 10_000) / 100 : null,
        latencyMs: times.length ? { p50: bound(50), p95: bound(95), p99: bound(99) } : null,
        volume: usdc(inDay.reduce((s, x) => s + x.gross, 0n)),
        earnings: usdc(inDay.reduce((s, x) => s + x.earnings, 0n)),
      });
    }
    expect(r.body.data.points.reduce((s: number, p: { executions: number }) => s + p.executions, 0)).toBe(mine.length);
  });

  it('a run that ends after a roll-up is added by the next, and parallel roll-ups add it once', async () => {
    const before = sum((await get(`agent/${second}/series`)).body.data.points);
    await run(second, payers[1], {});
    await Promise.all([rollUp(), rollUp(), rollUp()]);
    const after = sum((await get(`agent/${second}/series`)).body.data.points);
    expect(after.executions).toBe(before.executions + 1);
    expect(after.volume - before.volume).toBe(11_000n);
  });

  it('a transaction still open holds the horizon: what ends after it began waits until it closes', async () => {
    const open = new Client({ connectionString: env.api.app.get(AppConfig).databaseUrl });
    await open.connect();
    try {
      await open.query('BEGIN');
      await open.query('SELECT 1');
      const before = sum((await get('platform/series')).body.data.points).executions;
      await run(second, payers[2], {});
      await rollUp();
      const held = (await get('platform/series')).body.data;
      expect(sum(held.points).executions).toBe(before);
      expect(Date.parse(held.completeTo)).toBeLessThan(runs.at(-1)!.endedAt);
      await open.query('COMMIT');
      await rollUp();
      expect(sum((await get('platform/series')).body.data.points).executions).toBe(before + 1);
    } finally {
      await open.end();
    }
  });

  it('a run whose end the app stamped before the last roll-up, committed after it, is still counted, in its own hour', async () => {
    await rollUp();
    const late = await run(second, payers[0], {});
    // As if the app had stamped its end half an hour before its transaction committed (the charge's
    // time is the database's own, so it stays).
    late.endedAt = Date.now() - 30 * 60_000;
    await env.ds.query(`UPDATE executions SET completed_at = $2 WHERE id = $1`, [
      (late as Run & { id: string }).id,
      new Date(late.endedAt),
    ]);
    await rollUp();
    const r = await get(`agent/${second}/series?from=${new Date(late.endedAt - HOUR).toISOString()}`);
    const point = r.body.data.points.find((p: { at: string }) => Date.parse(p.at) === hourOf(late.endedAt));
    const expected = runs.filter((x) => x.agent === second && hourOf(x.endedAt) === hourOf(late.endedAt));
    expect(point.executions).toBe(expected.length);
    expect(expected).toContain(late);
  });

  it('bad ranges and ids are refused in the envelope', async () => {
    const now = Date.now();
    for (const [path, status] of [
      ['platform/series?bucket=week', 400],
      ['platform/series?from=2026-13-01T00:00:00Z', 400],
      ['platform/series?from=2026-W01', 400],
      ['platform/series?to=2026-123', 400],
      [`agent/${env.agentId}/series?bucket=day&from=${new Date(now - 100 * DAY).toISOString()}`, 400],
      [`platform/series?from=${new Date(now).toISOString()}&to=${new Date(now - DAY).toISOString()}`, 400],
      [`platform/series?bucket=hour&from=${new Date(now - 40 * DAY).toISOString()}`, 400],
      [`platform/series?bucket=day&from=${new Date(now - 400 * DAY).toISOString()}`, 400],
      ['platform/series?limit=5', 400],
      ['agent/not-a-uuid/series', 400],
      ['agent/00000000-0000-4000-8000-000000000000/series', 404],
    ] as const) {
      const r = await get(path);
      expect({ path, status: r.status }).toEqual({ path, status });
      expect(r.body.error.code).toBe(status === 404 ? 'AGENT_NOT_FOUND' : 'VALIDATION_ERROR');
    }
  });
});
