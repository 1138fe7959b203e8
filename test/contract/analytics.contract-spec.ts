/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: analytics and reputation (spec §2 "Reputation" and its tier table, §4 "Analytics and reputation",
 * resolutions §7 with REPUTATION_MODEL=spec): the agent's analytics, its reputation, tiers, the leaderboard.
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll } from './support/http';
import { execute, ISO_8601, micro, registerAgent, SIX_DECIMALS } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet } from './support/wallets';

let m: Marketplace;
let agent: AgentServer;
/** 3 successful and 1 failed execution, each paid by another wallet: score 50 + 3 - 2 = 51. */
let busy: string;

/** One execution of `agentId` by a fresh payer; `fail` makes the agent answer 500. */
async function run(agentId: string, fail = false): Promise<void> {
  const r = await execute(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { fail } });
  expect(r.status).toBe(fail ? 502 : 200);
}

async function reputation(agentId: string) {
  const r = await api(m, 'GET', `/api/v1/reputation/${agentId}`);
  expectStatus(r, 200, 'reputation:');
  return r.body.data;
}

/** The reputation once its score is `score` (waiting for it). */
function scoreReaches(agentId: string, score: number) {
  return poll(
    () => reputation(agentId),
    (d) => d.score === score,
    `score ${score} for ${agentId}`,
  );
}

const newAgent = async () => (await registerAgent(m, newWallet(), { endpoints: { execution: agent.url } })).id;

beforeAll(async () => {
  m = await startMarketplace();
  agent = await startAgentServer((req) =>
    req.body?.input?.fail ? { status: 500, body: { error: 'failed on purpose' } } : { body: { output: { ok: true } } },
  );
  busy = await newAgent();
  for (const fail of [false, false, true, false]) await run(busy, fail);
  await scoreReaches(busy, 51);
  for (let i = 0; i < 11; i++) await newAgent();
}, 120_000);
afterAll(async () => {
  await agent?.close();
  await m?.stop();
});

describe('Analytics and reputation', () => {
  it('reports the agent over the default period (week): executions, earnings, performance, disputes', async () => {
    const r = await api(m, 'GET', `/api/v1/analytics/agent/${busy}`);
    expectStatus(r, 200, 'analytics:');
    const d = r.body.data;
    expect(d).toMatchObject({ agentId: busy, period: 'week' });
    expect(d.executions).toMatchObject({ total: 4, successful: 3, failed: 1, successRate: 75 });
    for (const v of Object.values(d.earnings)) expect(v).toMatch(SIX_DECIMALS);
    expect(d.earnings.net).toBe('0.028500');
    expect(micro(d.earnings.gross) - micro(d.earnings.platformFees)).toBe(micro(d.earnings.net));
    const p = d.performance;
    for (const k of ['avgExecutionTime', 'p50ExecutionTime', 'p95ExecutionTime', 'p99ExecutionTime'])
      expect(typeof p[k] === 'number' && p[k] >= 0).toBe(true);
    expect(p.p50ExecutionTime <= p.p95ExecutionTime && p.p95ExecutionTime <= p.p99ExecutionTime).toBe(true);
    expect(d.disputes).toMatchObject({ total: 0, won: 0, lost: 0, pending: 0, rate: 0 });
    expect(d.reputation).toMatchObject({ current: 51, change: 1, tier: 'Standard' });
  });

  it.each(['day', 'week', 'month', 'all'])('takes period=%s', async (period) => {
    const r = await api(m, 'GET', `/api/v1/analytics/agent/${busy}?period=${period}`);
    expectStatus(r, 200, `analytics ${period}:`);
    expect(r.body.data).toMatchObject({ agentId: busy, period, executions: { total: 4, successful: 3, failed: 1 } });
  });

  it('refuses another period with 400 VALIDATION_ERROR', async () => {
    const r = await api(m, 'GET', `/api/v1/analytics/agent/${busy}?period=year`);
    expect([r.status, r.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('ranks the leaderboard: 10 by default, rank, agentId, name, score, tier, totalExecutions', async () => {
    const r = await api(m, 'GET', '/api/v1/reputation/leaderboard');
    expectStatus(r, 200, 'leaderboard:');
    const board = r.body.data.leaderboard;
    expect(board).toHaveLength(10);
    expect(board.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const scores = board.map((e: { score: number }) => e.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    for (const e of board) {
      expect(e).toMatchObject({ agentId: expect.any(String), name: expect.any(String), tier: expect.any(String) });
      expect(Number.isInteger(e.totalExecutions)).toBe(true);
    }
    const mine = board.find((e: { agentId: string }) => e.agentId === busy);
    expect(mine).toMatchObject({ score: 51, tier: 'Standard' });
    expect(mine.totalExecutions === 3 || mine.totalExecutions === 4).toBe(true);
  });

  it('takes a leaderboard limit up to 100 and refuses more with 400', async () => {
    const all = await api(m, 'GET', '/api/v1/reputation/leaderboard?limit=100');
    expectStatus(all, 200, 'leaderboard limit=100:');
    expect(all.body.data.leaderboard.length).toBeGreaterThanOrEqual(12);
    const two = await api(m, 'GET', '/api/v1/reputation/leaderboard?limit=2');
    expect(two.body.data.leaderboard).toHaveLength(2);
    const over = await api(m, 'GET', '/api/v1/reputation/leaderboard?limit=101');
    expect([over.status, over.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('Reputation', () => {
  it('reads score, tier, recentEvents {type, delta, createdAt} and the breakdown', async () => {
    const d = await reputation(busy);
    expect(d).toMatchObject({ agentId: busy, score: 51, tier: 'Standard' });
    expect(d.breakdown).toMatchObject({
      successfulExecutions: 3,
      failedExecutions: 1,
      disputesWon: 0,
      disputesLost: 0,
    });
    for (const e of d.recentEvents) {
      expect(e).toMatchObject({ type: expect.any(String), delta: expect.any(Number) });
      expect(e.createdAt).toMatch(ISO_8601);
    }
    expect(d.recentEvents.map((e: { delta: number }) => e.delta).sort()).toEqual([-2, 1, 1, 1]);
  });

  it('starts a new agent at 50 and moves it +1 for a success and -2 for a failure', async () => {
    const id = await newAgent();
    expect((await reputation(id)).score).toBe(50);
    await run(id);
    await scoreReaches(id, 51);
    await run(id, true);
    const d = await scoreReaches(id, 49);
    expect(d.recentEvents.map((e: { delta: number }) => e.delta).sort()).toEqual([-2, 1]);
  });

  it('names the tiers upwards: 59 Standard, 60 Trusted, 79 Trusted, 80 Excellent', async () => {
    const id = await newAgent();
    const steps: [number, number, string][] = [
      [9, 59, 'Standard'],
      [1, 60, 'Trusted'],
      [19, 79, 'Trusted'],
      [1, 80, 'Excellent'],
    ];
    for (const [successes, score, tier] of steps) {
      for (let i = 0; i < successes; i++) await run(id);
      expect((await scoreReaches(id, score)).tier).toBe(tier);
    }
  });

  it('names the tiers downwards: 40 Standard, 38 At Risk, 20 At Risk, 18 Critical', async () => {
    const id = await newAgent();
    const steps: [number, number, string][] = [
      [5, 40, 'Standard'],
      [1, 38, 'At Risk'],
      [9, 20, 'At Risk'],
      [1, 18, 'Critical'],
    ];
    for (const [failures, score, tier] of steps) {
      for (let i = 0; i < failures; i++) await run(id, true);
      expect((await scoreReaches(id, score)).tier).toBe(tier);
    }
  });
});
