import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '@app/queues';
import { loadConfig } from '@app/config';
import { ApiHarness, HttpResult, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, fileDispute, paidExecute } from '../support/disputes';
import { agentPayload, capabilityPayload, REGISTRATION_FEE_MICROS, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';
import {
  WRITES_PER_MIN,
  BUDGET_CHECKS_PER_MIN,
  FLOOD,
  FLOOD_PER_S,
  HEAVY_AGENTS,
  HEAVY_CAPABILITIES,
  heavySchema,
  from,
  limitedAnswer,
  sleep,
  withinOneMinute,
} from '../support/abuse-rate-limits';

/**
 * Issue 29, item 5: every unpaid request counts in the per-IP limiter. The attack: free budget
 * checks that compile the target's schemas, 29 a second from one address, after a one-time
 * set-up (agents whose schemas do not fit the validator cache), saturate the api; the other
 * unpaid POST routes (registration, webhooks, disputes, withdrawals) are unlimited likewise.
 */
describe('abuse: unpaid routes are limited per IP (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agent: TestAgentServer;

  beforeAll(async () => {
    agent = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_WRITES_PER_MIN: String(WRITES_PER_MIN),
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agent.stop();
  });

  it('runs on the default limits (the harness raises only the writes limit, put back above)', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitWritesPerMin: WRITES_PER_MIN,
      rateLimitBudgetChecksPerMin: BUDGET_CHECKS_PER_MIN,
    });
    expect(api.config).toMatchObject({
      rateLimitWritesPerMin: WRITES_PER_MIN,
      rateLimitBudgetChecksPerMin: BUDGET_CHECKS_PER_MIN,
    });
  });

  // The latency /health/live keeps meanwhile (target p99 < 100 ms) is measured by `npm run bench:schema`, part (c).
  it(`${FLOOD} budget checks from one address in a minute: those beyond ${BUDGET_CHECKS_PER_MIN} answer 429, and /health/live keeps answering`, async () => {
    const targets: { targetAgentId: string; capabilityId: string }[] = [];
    for (let a = 0; a < HEAVY_AGENTS; a++) {
      const capabilities = Array.from({ length: HEAVY_CAPABILITIES }, (_, c) =>
        capabilityPayload({ id: `c${c}`, inputSchema: heavySchema(`${a.toString(36)}c${c}`) }),
      );
      const res = await registerAgent(api, newWallet(), { capabilities }, {});
      expect(res.status).toBe(201);
      for (let c = 0; c < HEAVY_CAPABILITIES; c++)
        targets.push({ targetAgentId: res.body.data.id, capabilityId: `c${c}` });
    }
    // The flood (about 24 s) must fit one clock minute.
    await withinOneMinute(FLOOD / FLOOD_PER_S + 5);
    const health: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const res = await fetch(`${api.baseUrl}/api/v1/health/live`);
        await res.text();
        health.push(res.status);
        await sleep(20);
      }
    })();
    const started = Date.now();
    const answers: Promise<HttpResult>[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const due = started + (i * 1000) / FLOOD_PER_S;
      if (due > Date.now()) await sleep(due - Date.now());
      const target = targets[i % targets.length];
      answers.push(
        api.request('POST', '/api/v1/chains/budget-check', {
          body: { ...target, input: { p0: 'ab12' } },
          headers: from('203.0.113.5'),
        }),
      );
    }
    const results = await Promise.all(answers);
    flooding = false;
    await probe;
    const served = results.filter((r) => r.status !== 429);
    const limited = results.filter((r) => r.status === 429);
    const statuses = results.reduce<Record<number, number>>(
      (n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }),
      {},
    );
    process.stdout.write(`budget-check flood: ${JSON.stringify({ statuses, floodMs: Date.now() - started })}\n`);
    // The limiter counted the whole flood in the window of the minute it began (its Redis counter).
    const window = `${api.config.queuePrefix}:rl:budget-check:203.0.113.5:${Math.floor(started / 60_000)}`;
    expect(await api.app.get<Redis>(REDIS, { strict: false }).get(window)).toBe(String(FLOOD));
    expect(served.map((r) => r.status)).toEqual(Array(BUDGET_CHECKS_PER_MIN).fill(200));
    expect(limited).toHaveLength(FLOOD - BUDGET_CHECKS_PER_MIN);
    expect(new Set(limited.map((r) => JSON.stringify(limitedAnswer(r))))).toEqual(
      new Set([
        JSON.stringify({
          status: 429,
          code: 'RATE_LIMITED',
          retryAfter: true,
          limit: String(BUDGET_CHECKS_PER_MIN),
          remaining: '0',
        }),
      ]),
    );
    // Probed all along (about 24 s, every 20 ms plus its answer), answered every time.
    expect(health.length).toBeGreaterThan(50);
    expect(new Set(health)).toEqual(new Set([200]));
  }, 180_000);
  /**
   * One route family: `fill` (any answer) spends the address's writes window, then `attempt`, a
   * request that would succeed, is refused with 429 in the envelope and the limit headers.
   */
  async function exhaustThen(ip: string, fill: (i: number) => Promise<HttpResult>, attempt: () => Promise<HttpResult>) {
    await withinOneMinute(15);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < WRITES_PER_MIN; i++) remaining.push((await fill(i)).headers.get('x-ratelimit-remaining'));
    const res = await attempt();
    expect({ remaining, attempt: limitedAnswer(res) }).toEqual({
      remaining: Array.from({ length: WRITES_PER_MIN }, (_, i) => String(WRITES_PER_MIN - i - 1)),
      attempt: { status: 429, code: 'RATE_LIMITED', retryAfter: true, limit: String(WRITES_PER_MIN), remaining: '0' },
    });
  }

  it(`registrations and agent changes: ${WRITES_PER_MIN} a minute from one address, then 429 (a paid registration included, nothing written)`, async () => {
    const ip = '203.0.113.10';
    const owner = newWallet();
    const agentId = (await registerAgent(api, owner, { endpoints: { execution: agent.url } })).body.data.id;
    const routes = [
      () => api.request('POST', '/api/v1/agents', { body: {}, headers: from(ip) }),
      async () =>
        api.request('PATCH', `/api/v1/agents/${agentId}`, {
          body: { description: 'changed' },
          headers: from(ip, await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`)),
        }),
      () => api.request('DELETE', `/api/v1/agents/${agentId}`, { headers: from(ip) }),
    ];
    const wallet = newWallet();
    await exhaustThen(
      ip,
      (i) => routes[i % routes.length](),
      () => registerAgentFrom(ip, wallet),
    );
    expect(await ds.query(`SELECT id FROM agents WHERE wallet = $1`, [wallet.address.toLowerCase()])).toEqual([]);
  });

  it(`webhooks: ${WRITES_PER_MIN} a minute from one address, then 429 (a signed subscription included, nothing written)`, async () => {
    const ip = '203.0.113.11';
    const owner = newWallet();
    const agentId = (await registerAgent(api, owner, { endpoints: { execution: agent.url } })).body.data.id;
    const hook = async () =>
      api.request('POST', '/api/v1/webhooks', {
        body: { agentId, url: `${agent.url}/hook`, events: ['execution.completed'] },
        headers: from(ip, await walletHeaders(owner, agentId, 'POST /api/v1/webhooks')),
      });
    const routes = [
      () => api.request('POST', '/api/v1/webhooks', { body: {}, headers: from(ip) }),
      () => api.request('DELETE', '/api/v1/webhooks/00000000-0000-4000-8000-000000000000', { headers: from(ip) }),
      () =>
        api.request(
          'POST',
          '/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries/00000000-0000-4000-8000-000000000000/redeliver',
          { headers: from(ip) },
        ),
    ];
    await exhaustThen(ip, (i) => routes[i % routes.length](), hook);
    expect(await ds.query(`SELECT id FROM webhook_subscriptions WHERE agent_id = $1`, [agentId])).toEqual([]);
  });

  it(`disputes: ${WRITES_PER_MIN} a minute from one address, then 429 (a payer's filing included, nothing written)`, async () => {
    const ip = '203.0.113.12';
    const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agent.url } })).body.data.id;
    const call = await paidExecute(api, agentId, newWallet(), 11_000n);
    const routes = [
      () => api.request('POST', '/api/v1/disputes', { body: {}, headers: from(ip) }),
      () =>
        api.request('POST', '/api/v1/disputes/00000000-0000-4000-8000-000000000000/respond', {
          body: {},
          headers: from(ip),
        }),
    ];
    await exhaustThen(
      ip,
      (i) => routes[i % routes.length](),
      () => fileDispute(api, call, {}, from(ip, { [call.payment.name]: call.payment.value })),
    );
    expect(await ds.query(`SELECT id FROM disputes WHERE transaction_id = $1`, [call.transactionId])).toEqual([]);
  });

  it(`withdrawals: ${WRITES_PER_MIN} a minute from one address, then 429 (a signed withdrawal included, nothing written)`, async () => {
    const ip = '203.0.113.13';
    const owner = newWallet();
    const agentId = (await registerAgent(api, owner, { endpoints: { execution: agent.url } })).body.data.id;
    await seedCharge(api.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const withdraw = async (body: Record<string, unknown>) =>
      api.request('POST', '/api/v1/payments/withdraw', {
        body: { agentId, destinationWallet: newWallet().address, ...body },
        headers: from(ip, await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw')),
      });
    await exhaustThen(
      ip,
      () => withdraw({ amount: '0.000001' }),
      () => withdraw({ amount: '1.000000' }),
    );
    expect(await ds.query(`SELECT id FROM withdrawals WHERE agent_id = $1`, [agentId])).toEqual([]);
  });

  it(`retries and admin actions count in the same window; the paid execute, health and reads do not`, async () => {
    const ip = '203.0.113.14';
    const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agent.url } })).body.data.id;
    const routes = [
      () => api.request('POST', '/api/v1/execute/req_00000000000000000000/retry', { headers: from(ip) }),
      () =>
        api.request('POST', '/api/v1/admin/agents/00000000-0000-4000-8000-000000000000/reinstate', {
          headers: from(ip, ADMIN),
        }),
    ];
    await exhaustThen(
      ip,
      (i) => routes[i % routes.length](),
      () =>
        api.request('POST', `/api/v1/admin/agents/${agentId}/suspend`, {
          body: { reason: 'test' },
          headers: from(ip, ADMIN),
        }),
    );
    expect((await ds.query(`SELECT status FROM agents WHERE id = $1`, [agentId]))[0].status).toBe('active');
    // From the same address: a paid execute (its own limits), health, and a read (its own window) go on.
    const pay = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    const paid = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } },
      headers: from(ip, { [pay.name]: pay.value }),
    });
    expect(paid.status).toBe(200);
    const live = await api.request('GET', '/api/v1/health/live', { headers: from(ip) });
    expect([live.status, live.headers.get('x-ratelimit-limit')]).toEqual([200, null]);
    expect((await api.request('GET', `/api/v1/agents/${agentId}`, { headers: from(ip) })).status).toBe(200);
  });

  it('budget-check keeps its own window whatever the spelling of its path', async () => {
    const ip = '203.0.113.15';
    const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agent.url } })).body.data.id;
    await withinOneMinute(15);
    const body = { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } };
    for (let i = 0; i < BUDGET_CHECKS_PER_MIN; i++)
      expect((await api.request('POST', '/api/v1/chains/budget-check', { body, headers: from(ip) })).status).toBe(200);
    for (const path of ['/api/v1/chains/budget-check/', '/API/V1/Chains/Budget-Check']) {
      expect(limitedAnswer(await api.request('POST', path, { body, headers: from(ip) }))).toEqual({
        status: 429,
        code: 'RATE_LIMITED',
        retryAfter: true,
        limit: String(BUDGET_CHECKS_PER_MIN),
        remaining: '0',
      });
    }
  });

  /** A paid registration (0.10 USDC) from `ip`. */
  async function registerAgentFrom(ip: string, wallet: ReturnType<typeof newWallet>) {
    const pay = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/agents', {
      body: agentPayload(wallet, { endpoints: { execution: agent.url } }),
      headers: from(ip, { [pay.name]: pay.value }),
    });
  }
});
