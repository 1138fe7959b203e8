import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const DAY = 86_400_000;

/** What the test did, by hand: one charged run (its cost and time) or one failed run, and how long ago it is made to look. */
interface Outcome {
  ok: boolean;
  requestId: string;
  ageMs: number;
  timeMs?: number;
  agentFee?: bigint;
  platformFee?: bigint;
}

const micros = (s: string) => BigInt(s.replace('.', ''));
const usdc = (m: bigint) => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;
/** Half-up 5% of the agent fee, computed here on its own (resolutions §1). */
const cut = (fee: bigint) => (fee * 5n + 50n) / 100n;
/** Nearest rank: the value at position ceil(p/100 * n) of the sorted values. */
const nearestRank = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
};

/**
 * Analytics over HTTP, checked against figures the test computes itself from what it did: runs
 * with chosen delays and outcomes, some moved back in time (3, 10 and 40 days) so each rolling
 * period sees its own share.
 */
describe('Analytics (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    // The spec's deltas for every paying wallet (the weighted model has its tests in reputation-sybil).
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_TIMEOUT_MS: '1000',
      REPUTATION_MODEL: 'spec',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload(),
        capabilityPayload({
          id: 'premium',
          name: 'Premium translation',
          pricing: { model: 'per-request', basePrice: '0.123457', currency: 'USDC' },
        }),
      ],
    });
    agentId = res.body.data.id;

    // Ages: now, 3 days (in week and month), 10 days (month), 40 days (all only).
    const plan: { ageMs: number; delayMs?: number; mode?: string; premium?: boolean }[] = [
      ...[0, 15, 30, 45, 60, 75, 90, 120].map((delayMs) => ({ ageMs: 0, delayMs })),
      { ageMs: 0, mode: 'fail' },
      { ageMs: 0, premium: true, delayMs: 5 },
      ...[10, 200].map((delayMs) => ({ ageMs: 3 * DAY, delayMs })),
      { ageMs: 3 * DAY, mode: 'bad-output' },
      { ageMs: 3 * DAY, premium: true, delayMs: 40 },
      ...[25, 35].map((delayMs) => ({ ageMs: 10 * DAY, delayMs })),
      { ageMs: 10 * DAY, mode: 'fail' },
      { ageMs: 40 * DAY, delayMs: 55 },
      { ageMs: 40 * DAY, mode: 'fail' },
    ];
    for (const p of plan) {
      const h = await x402Header(newWallet(), {
        amount: p.premium ? 124_457n : PRICE,
        payTo: api.config.platformWallet,
      });
      const input = {
        text: 'bonjour',
        ...(p.delayMs !== undefined ? { delayMs: p.delayMs } : {}),
        ...(p.mode ? { mode: p.mode } : {}),
      };
      const r = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agentId, capabilityId: p.premium ? 'premium' : 'translate', input },
        headers: { [h.name]: h.value },
      });
      if (r.status === 200) {
        const { requestId, executionTime, cost } = r.body.data;
        outcomes.push({
          ok: true,
          requestId,
          ageMs: p.ageMs,
          timeMs: executionTime,
          agentFee: micros(cost.agentFee),
          platformFee: micros(cost.platformFee),
        });
      } else {
        expect(r.status).toBe(502);
        const [row] = await ds.query(`SELECT id FROM executions WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1`, [
          agentId,
        ]);
        outcomes.push({ ok: false, requestId: row.id, ageMs: p.ageMs });
      }
    }
    // Move the older ones back: the charge and the score change each outcome recorded.
    for (const o of outcomes.filter((x) => x.ageMs > 0)) {
      const at = new Date(Date.now() - o.ageMs);
      await ds.query(
        `UPDATE transactions SET created_at = $2 WHERE id = (SELECT transaction_id FROM executions WHERE id = $1)`,
        [o.requestId, at],
      );
      await ds.query(
        `UPDATE reputation_events SET created_at = $2 WHERE ref_id = $1 OR ref_id = (SELECT transaction_id FROM executions WHERE id = $1)`,
        [o.requestId, at],
      );
    }
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const analytics = (query: string, id = agentId) => api.request('GET', `/api/v1/analytics/agent/${id}${query}`);

  /** The response the test expects for the outcomes younger than `maxAgeMs`. */
  function expected(period: string, maxAgeMs: number, score: number) {
    const inWindow = outcomes.filter((o) => o.ageMs < maxAgeMs);
    const ok = inWindow.filter((o) => o.ok);
    const failed = inWindow.length - ok.length;
    const times = ok.map((o) => o.timeMs!);
    const gross = ok.reduce((s, o) => s + o.agentFee! + o.platformFee!, 0n);
    const fees = ok.reduce((s, o) => s + o.platformFee! + cut(o.agentFee!), 0n);
    return {
      agentId,
      period,
      executions: {
        total: inWindow.length,
        successful: ok.length,
        failed,
        successRate: Math.round((ok.length * 10_000) / inWindow.length) / 100,
        selfPaid: 0,
      },
      earnings: { gross: usdc(gross), platformFees: usdc(fees), net: usdc(gross - fees) },
      performance: {
        avgExecutionTime: Math.round(times.reduce((s, t) => s + t, 0) / times.length),
        p50ExecutionTime: nearestRank(times, 50),
        p95ExecutionTime: nearestRank(times, 95),
        p99ExecutionTime: nearestRank(times, 99),
      },
      disputes: { total: 0, won: 0, lost: 0, pending: 0, rate: 0 },
      reputation: {
        current: score,
        change: period === 'all' ? score - 50 : ok.length - 2 * failed,
        tier:
          score >= 80
            ? 'Excellent'
            : score >= 60
              ? 'Trusted'
              : score >= 40
                ? 'Standard'
                : score >= 20
                  ? 'At Risk'
                  : 'Critical',
      },
    };
  }

  it('the runs happened as planned: 15 charged, 4 failed, and the score moved by each', async () => {
    expect(outcomes.filter((o) => o.ok)).toHaveLength(15);
    expect(outcomes.filter((o) => !o.ok)).toHaveLength(4);
    const [{ s }] = await ds.query(`SELECT reputation_score AS s FROM agents WHERE id = $1`, [agentId]);
    expect(s).toBe(50 + 15 - 8);
  });

  it.each([
    ['day', DAY],
    ['week', 7 * DAY],
    ['month', 30 * DAY],
    ['all', Infinity],
  ])(
    'period=%s: exact counts, success rate, earnings sums, percentiles and the reputation change',
    async (period, maxAgeMs) => {
      const res = await analytics(`?period=${period}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expected(period, maxAgeMs, 57));
    },
  );

  it('defaults to the week', async () => {
    expect((await analytics('')).body.data).toEqual(expected('week', 7 * DAY, 57));
  });

  it('an agent with no executions answers zeros', async () => {
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    const quiet = await analytics('?period=all', res.body.data.id);
    expect(quiet.status).toBe(200);
    expect(quiet.body.data).toMatchObject({
      executions: { total: 0, successful: 0, failed: 0, successRate: 0, selfPaid: 0 },
      earnings: { gross: '0.000000', platformFees: '0.000000', net: '0.000000' },
      performance: { avgExecutionTime: 0, p50ExecutionTime: 0, p95ExecutionTime: 0, p99ExecutionTime: 0 },
      reputation: { current: 50, change: 0, tier: 'Standard' },
    });
  });

  it.each(['?period=year', '?period=', '?period=WEEK', '?period=day&x=1'])('refuses %s with 400', async (query) => {
    const res = await analytics(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('404 for an unknown agent, 400 for an id that is not a UUID', async () => {
    const res = await analytics('?period=all', '00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('AGENT_NOT_FOUND');
    expect((await analytics('', 'nope')).status).toBe(400);
  });

  it('/payments/stats keeps its shape and equals what the tables hold', async () => {
    await ds.query(`UPDATE agents SET status = 'inactive' WHERE id <> $1`, [agentId]);
    const res = await api.request('GET', '/api/v1/payments/stats');
    expect(res.status).toBe(200);
    const [t] = await ds.query(
      `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM agents WHERE status = 'active')::int AS active,
              count(*)::int AS n, sum(gross_amount)::text AS volume FROM transactions`,
    );
    expect(t).toMatchObject({ active: 1, n: 15 });
    expect(res.body.data).toEqual({
      totalAgents: t.agents,
      activeAgents: 1,
      totalTransactions: 15,
      totalVolume: usdc(BigInt(t.volume)),
      avgTransactionSize: usdc(BigInt(t.volume) / 15n),
    });
  });
});
