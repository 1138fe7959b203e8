import { DataSource } from 'typeorm';
import { ROLLUP_CHECKS } from '@app/analytics';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
const EARNINGS = 9_500n; // 0.010 less the 5% cut
const HOLD = { standard: 1_000, atRisk: 3_000, critical: 7_000 };
const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };

/**
 * Reputation over HTTP with a real agent: every outcome moves the score in its own transaction,
 * tiers change the escrow hold of the next charge, a score at 0 suspends, and the reads
 * (reputation, leaderboard) show it.
 */
describe('Reputation (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_TIMEOUT_MS: '1000',
      ESCROW_HOLD_STANDARD_S: String(HOLD.standard),
      ESCROW_HOLD_AT_RISK_S: String(HOLD.atRisk),
      ESCROW_HOLD_CRITICAL_S: String(HOLD.critical),
      // The spec's deltas for every paying wallet (the weighted model has its tests in reputation-weight).
      REPUTATION_MODEL: 'spec',
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  async function newAgent(score?: number, name = 'Reputable Translator'): Promise<string> {
    const res = await registerAgent(api, newWallet(), {
      name,
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(res.status).toBe(201);
    if (score !== undefined)
      await ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [res.body.data.id, score]);
    return res.body.data.id;
  }

  async function execute(agentId: string, input: Record<string, unknown> = { text: 'bonjour' }) {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input },
      headers: { [h.name]: h.value },
    });
  }

  /** The escrow hold of an execution's charge: its status and its length in seconds. */
  async function holdOf(requestId: string): Promise<{ status: string; seconds: number }> {
    const [row] = await ds.query(
      `SELECT h.status, round(extract(epoch FROM h.release_at - t.completed_at))::int AS seconds
         FROM executions e JOIN transactions t ON t.id = e.transaction_id JOIN escrow_holds h ON h.transaction_id = t.id WHERE e.id = $1`,
      [requestId],
    );
    return row;
  }

  const score = async (agentId: string) =>
    (await ds.query(`SELECT reputation_score AS s FROM agents WHERE id = $1`, [agentId]))[0].s as number;
  const reputation = (agentId: string) => api.request('GET', `/api/v1/reputation/${agentId}`);
  const balance = async (agentId: string) =>
    (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data as {
      available: string;
      pending: string;
    };

  it('59 -> 60 (Standard -> Trusted): that charge is held 24 h-equivalent, the next one is released instantly', async () => {
    const id = await newAgent(59);
    const first = await execute(id);
    expect(first.status).toBe(200);
    expect(await holdOf(first.body.data.requestId)).toEqual({ status: 'held', seconds: HOLD.standard });
    expect(await score(id)).toBe(60);
    expect(await balance(id)).toMatchObject({ available: '0.000000', pending: '0.009500' });
    const second = await execute(id);
    expect(second.status).toBe(200);
    expect(await holdOf(second.body.data.requestId)).toEqual({ status: 'released', seconds: 0 });
    expect(await balance(id)).toMatchObject({ available: '0.009500', pending: '0.009500' });
    expect(await score(id)).toBe(61);
  });

  it('39 -> 40 (At Risk -> Standard): the hold follows the score at each charge', async () => {
    const id = await newAgent(39);
    const first = await execute(id);
    expect(await holdOf(first.body.data.requestId)).toEqual({ status: 'held', seconds: HOLD.atRisk });
    const second = await execute(id);
    expect(await holdOf(second.body.data.requestId)).toEqual({ status: 'held', seconds: HOLD.standard });
    await ds.query(`UPDATE agents SET reputation_score = 19 WHERE id = $1`, [id]);
    const third = await execute(id);
    expect(await holdOf(third.body.data.requestId)).toEqual({ status: 'held', seconds: HOLD.critical });
  });

  it('a score moved by executions does not throw away the cached execute target (config_version stays)', async () => {
    const id = await newAgent(70);
    const version = async () =>
      (await ds.query(`SELECT config_version::text AS v FROM agents WHERE id = $1`, [id]))[0].v as string;
    expect((await execute(id)).status).toBe(200);
    const before = await version();
    for (let i = 0; i < 3; i++) expect((await execute(id)).status).toBe(200);
    expect(await score(id)).toBe(74);
    expect(await version()).toBe(before);
  });

  it('a failed run is -2, a timed-out run -2, each an event naming the execution; the run is not charged', async () => {
    const id = await newAgent();
    const failed = await execute(id, { text: 'x', mode: 'fail' });
    expect(failed.status).toBe(502);
    const timedOut = await execute(id, { text: 'x', mode: 'slow' });
    expect(timedOut.status).toBe(504);
    expect(await score(id)).toBe(46);
    const events = await ds.query(
      `SELECT type, delta, score, ref_id AS "refId" FROM reputation_events WHERE agent_id = $1 ORDER BY id`,
      [id],
    );
    const [f, t] = await ds.query(`SELECT id FROM executions WHERE agent_id = $1 ORDER BY created_at`, [id]);
    expect(events).toEqual([
      { type: 'execution.failed', delta: -2, score: 48, refId: f.id },
      { type: 'execution.failed', delta: -2, score: 46, refId: t.id },
    ]);
    // The public view names no request id (the payer's secret: it reads the output, starts the retry).
    const shown = (await reputation(id)).body.data.recentEvents as { refId: string | null }[];
    expect(shown.map((e) => e.refId)).toEqual([null, null]);
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE providing_agent_id = $1`, [id]))[0].n,
    ).toBe(0);
  });

  it('clamps at 100 (the event records the 0 applied) and at 0, where the agent is suspended until an admin reinstates it', async () => {
    const top = await newAgent(100);
    expect((await execute(top)).status).toBe(200);
    expect(await score(top)).toBe(100);
    expect((await reputation(top)).body.data.recentEvents[0]).toMatchObject({
      type: 'execution.completed',
      delta: 0,
      score: 100,
    });

    const low = await newAgent(3);
    expect((await execute(low, { text: 'x', mode: 'fail' })).status).toBe(502);
    expect((await reputation(low)).body.data).toMatchObject({ score: 1, tier: 'Critical', status: 'active' });
    expect((await execute(low, { text: 'x', mode: 'fail' })).status).toBe(502);
    const suspended = (await reputation(low)).body.data;
    expect(suspended).toMatchObject({ score: 0, tier: 'Critical', status: 'suspended' });
    expect(suspended.recentEvents[0]).toMatchObject({ type: 'execution.failed', delta: -1, score: 0 });
    const agent = await api.request('GET', `/api/v1/agents/${low}`);
    expect(agent.body.data.status).toBe('suspended');
    // Suspended: no longer executable (the cached target sees the status change) nor listed.
    const refused = await execute(low);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('AGENT_NOT_FOUND');
    expect(
      (await api.request('GET', '/api/v1/reputation/leaderboard?limit=100')).body.data.leaderboard.map(
        (e: { agentId: string }) => e.agentId,
      ),
    ).not.toContain(low);
    // An admin reinstates it; its score stays 0 until outcomes move it, and a further penalty suspends it again.
    const reinstated = await api.request('POST', `/api/v1/admin/agents/${low}/reinstate`, { headers: ADMIN, body: {} });
    expect(reinstated.status).toBe(200);
    expect(reinstated.body.data).toMatchObject({ status: 'active', reputation_score: 0 });
    expect((await execute(low)).status).toBe(200);
    expect((await reputation(low)).body.data).toMatchObject({ score: 1, status: 'active' });
  });

  it('shows recent events newest first and a breakdown of the outcomes', async () => {
    const id = await newAgent();
    expect((await execute(id)).status).toBe(200);
    expect((await execute(id, { text: 'x', mode: 'bad-output' })).status).toBe(502);
    expect((await execute(id)).status).toBe(200);
    expect((await execute(id)).status).toBe(200);
    const res = await reputation(id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      agentId: id,
      score: 51,
      tier: 'Standard',
      breakdown: { successfulExecutions: 3, failedExecutions: 1, disputesWon: 0, disputesLost: 0 },
    });
    const events = res.body.data.recentEvents;
    expect(events.map((e: { type: string; delta: number; score: number }) => [e.type, e.delta, e.score])).toEqual([
      ['execution.completed', 1, 51],
      ['execution.completed', 1, 50],
      ['execution.failed', -2, 49],
      ['execution.completed', 1, 51],
    ]);
    const times = events.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Object.keys(events[0]).sort()).toEqual(['createdAt', 'delta', 'refId', 'score', 'type']);
  });

  it('50 parallel executions of one agent move its score by exactly 50, one event each, nothing lost', async () => {
    const id = await newAgent(40);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => execute(id, { text: `p${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(await score(id)).toBe(90);
    const events = await ds.query(`SELECT delta, score FROM reputation_events WHERE agent_id = $1 ORDER BY score`, [
      id,
    ]);
    expect(events).toEqual(Array.from({ length: 50 }, (_, i) => ({ delta: 1, score: 41 + i })));
    expect((await reputation(id)).body.data.breakdown.successfulExecutions).toBe(50);
    expect((await api.request('GET', `/api/v1/agents/${id}`)).body.data.reputation_score).toBe(90);
    // Every charge's earnings are either held or released: none lost, none twice.
    const b = await balance(id);
    const micros = (s: string) => BigInt(s.replace('.', ''));
    expect(micros(b.available) + micros(b.pending)).toBe(50n * EARNINGS);
    const holds = await ds.query(
      `SELECT status, count(*)::int AS n FROM escrow_holds WHERE agent_id = $1 GROUP BY status`,
      [id],
    );
    expect(holds.reduce((sum: number, h: { n: number }) => sum + h.n, 0)).toBe(50);
  });

  it('successes and failures of one agent committing together: every one answered, none lost (no lock cycle)', async () => {
    const id = await newAgent(70);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => execute(id, i % 2 ? { text: `f${i}`, mode: 'fail' } : { text: `s${i}` })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 502)).toHaveLength(20);
    expect(await score(id)).toBe(70 + 20 - 40);
    expect((await reputation(id)).body.data.breakdown).toMatchObject({
      successfulExecutions: 20,
      failedExecutions: 20,
    });
    const checks = await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...ROLLUP_CHECKS]);
    expect(checks.results.filter((r) => r.violations.length)).toEqual([]);
  });

  it('404 for an unknown agent, 400 for an id that is not a UUID', async () => {
    const unknown = await reputation('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'AGENT_NOT_FOUND' } });
    expect((await reputation('not-a-uuid')).status).toBe(400);
  });

  describe('leaderboard', () => {
    const board = (query = '') => api.request('GET', `/api/v1/reputation/leaderboard${query}`);

    it('ranks active agents by score, then executions; 10 by default, at most 100', async () => {
      await ds.query(`UPDATE agents SET status = 'inactive' WHERE status = 'active'`);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await newAgent(30 + 5 * i, `Ranked ${i}`));
      await ds.query(`UPDATE agents SET execution_count = 7 WHERE id = $1`, [ids[3]]);
      await ds.query(`UPDATE agents SET reputation_score = 45 WHERE id = $1`, [ids[2]]); // ties with ids[3] (45), fewer executions
      const inactive = await newAgent(99, 'Inactive star');
      await ds.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [inactive]);

      const res = await board();
      expect(res.status).toBe(200);
      const list = res.body.data.leaderboard;
      expect(list).toHaveLength(10);
      expect(list.map((e: { agentId: string }) => e.agentId)).toEqual(
        [11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((i) => ids[i]),
      );
      expect(list.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(list[0]).toEqual({
        rank: 1,
        agentId: ids[11],
        name: 'Ranked 11',
        score: 85,
        tier: 'Excellent',
        totalExecutions: 0,
      });
      expect(list[8]).toMatchObject({ agentId: ids[3], score: 45, tier: 'Standard', totalExecutions: 7 });
      expect(list[9]).toMatchObject({ agentId: ids[2], score: 45, totalExecutions: 0 });

      const all = (await board('?limit=100')).body.data.leaderboard;
      expect(all).toHaveLength(12);
      expect(all[11]).toMatchObject({ rank: 12, agentId: ids[0], score: 30, tier: 'At Risk' });
      expect((await board('?limit=3')).body.data.leaderboard).toHaveLength(3);
    });

    it.each(['?limit=101', '?limit=-1', '?limit=0', '?limit=abc', '?limit=2.5', '?offset=1'])(
      'refuses %s with 400',
      async (query) => {
        const res = await board(query);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      },
    );
  });
});
