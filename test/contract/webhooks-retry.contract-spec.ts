/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the webhook status table (spec §3) and the retry policy (spec §6, resolutions §9): a receiver that always
 * fails gets 5 attempts of the same event, then the subscription is failed and delivery stops; a 410 marks it
 * failed at once. The operator's list of failed subscriptions (GET /api/v1/admin/webhooks/failed, OpenAPI).
 *
 * The harness's WEBHOOK_RETRY_DELAYS_MS is 0,300,600,900,1200 (the five attempts, short as the configuration
 * table allows). Every subscription here has a healthy sibling on the same agent: what it receives shows that
 * an event was sent, so "no more attempts" is checked against a delivery that did happen, not a pause.
 */
import { Wallet } from 'ethers';
import { AgentAnswer, AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll } from './support/http';
import { executeOk, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

/** The sum of the harness's five delays, less their 10% jitter: the least time the attempts can span. */
const SCHEDULE_SPAN_MS = Math.floor(0.9 * (300 + 600 + 900 + 1200));

let m: Marketplace;
let agentServer: AgentServer;
const servers: AgentServer[] = [];
beforeAll(async () => {
  m = await startMarketplace();
  agentServer = await startAgentServer();
}, 120_000);
afterAll(async () => {
  await Promise.all([agentServer, ...servers].map((s) => s?.close()));
  await m?.stop();
});

interface Receiver {
  server: AgentServer;
  /** When each POST arrived (ms). */
  times: number[];
}

async function receiver(answer: AgentAnswer): Promise<Receiver> {
  const times: number[] = [];
  const server = await startAgentServer(() => {
    times.push(Date.now());
    return answer;
  });
  servers.push(server);
  return { server, times };
}

async function subscribe(wallet: Wallet, agentId: string, url: string): Promise<string> {
  const r = await api(m, 'POST', '/api/v1/webhooks', {
    body: { agentId, url, events: ['execution.completed'] },
    headers: await agentHeaders(wallet, agentId),
  });
  expectStatus(r, 201, 'subscribe:');
  return r.body.data.webhookId;
}

async function statuses(agentId: string): Promise<Record<string, string>> {
  const r = await api(m, 'GET', `/api/v1/webhooks/agent/${agentId}`);
  expectStatus(r, 200, 'list webhooks:');
  return Object.fromEntries(r.body.data.webhooks.map((w: { id: string; status: string }) => [w.id, w.status]));
}

/** An agent with a healthy subscription and one to `bad`. */
async function setUp(bad: Receiver) {
  const wallet = newWallet();
  const agentId = (await registerAgent(m, wallet, { endpoints: { execution: agentServer.url } })).id;
  const healthy = await receiver({ status: 200, body: { ok: true } });
  const healthyId = await subscribe(wallet, agentId, healthy.server.url);
  const badId = await subscribe(wallet, agentId, bad.server.url);
  const runOnce = async (): Promise<string> =>
    (await executeOk(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: {} })).body.data.requestId;
  const deliveredTo = (r: Receiver, requestId: string) =>
    r.server.calls.filter((c) => c.body?.data?.requestId === requestId);
  const awaitHealthy = (requestId: string) =>
    poll(
      async () => deliveredTo(healthy, requestId).length,
      (n) => n > 0,
      `the healthy delivery of ${requestId}`,
      30_000,
    );
  return { agentId, healthyId, badId, runOnce, deliveredTo, awaitHealthy };
}

async function failedList(): Promise<string[]> {
  const r = await api(m, 'GET', '/api/v1/admin/webhooks/failed?limit=100', { headers: { 'X-Admin-Key': m.adminKey } });
  expectStatus(r, 200, 'admin failed webhooks:');
  return r.body.data.webhooks.map((w: { id: string }) => w.id);
}

describe('Webhook status', () => {
  it('active -> failed after 5 failed delivery attempts of one event; then delivery stops', async () => {
    const failing = await receiver({ status: 500, body: { error: 'down' } });
    const s = await setUp(failing);
    expect(await statuses(s.agentId)).toEqual({ [s.healthyId]: 'active', [s.badId]: 'active' });
    const first = await s.runOnce();
    await poll(
      () => statuses(s.agentId),
      (st) => st[s.badId] === 'failed',
      'the failing subscription marked failed',
      30_000,
    );
    const attempts = s.deliveredTo(failing, first);
    expect(attempts).toHaveLength(5);
    // Five attempts of one event: the same body, the same event id.
    expect(new Set(attempts.map((a) => a.body.id)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-event-id'])).size).toBe(1);
    expect(attempts[0].body).toMatchObject({ type: 'execution.completed', id: expect.stringMatching(/^evt_/) });
    // Spread over the schedule, not sent at once.
    expect(failing.times[4] - failing.times[0]).toBeGreaterThanOrEqual(SCHEDULE_SPAN_MS);
    expect((await statuses(s.agentId))[s.healthyId]).toBe('active');
    // The next event reaches the healthy sibling and nothing reaches the failed subscription.
    const second = await s.runOnce();
    await s.awaitHealthy(second);
    expect(s.deliveredTo(failing, second)).toHaveLength(0);
    expect(failing.server.calls).toHaveLength(5);
    expect(await failedList()).toContain(s.badId);
    expect(await failedList()).not.toContain(s.healthyId);
  });

  it('a 410 answer marks the subscription failed at once, after one attempt', async () => {
    const gone = await receiver({ status: 410, body: { error: 'gone' } });
    const s = await setUp(gone);
    const first = await s.runOnce();
    await poll(
      () => statuses(s.agentId),
      (st) => st[s.badId] === 'failed',
      'the 410 subscription marked failed',
      30_000,
    );
    await s.awaitHealthy(first);
    expect(s.deliveredTo(gone, first)).toHaveLength(1);
    const second = await s.runOnce();
    await s.awaitHealthy(second);
    expect(gone.server.calls).toHaveLength(1);
    expect((await statuses(s.agentId))[s.healthyId]).toBe('active');
    expect(await failedList()).toContain(s.badId);
  });

  it('a receiver that fails and then answers 2xx keeps its subscription active', async () => {
    let failures = 2;
    const flaky = await receiver({ status: 200, body: { ok: true } });
    flaky.server.handler = () => {
      flaky.times.push(Date.now());
      return failures-- > 0 ? { status: 503, body: { error: 'busy' } } : { status: 200, body: { ok: true } };
    };
    const s = await setUp(flaky);
    const first = await s.runOnce();
    await poll(
      async () => s.deliveredTo(flaky, first).length,
      (n) => n >= 3,
      'the third attempt',
      30_000,
    );
    const second = await s.runOnce();
    await s.awaitHealthy(second);
    await poll(
      async () => s.deliveredTo(flaky, second).length,
      (n) => n > 0,
      'the next event at the recovered receiver',
      30_000,
    );
    expect(s.deliveredTo(flaky, first)).toHaveLength(3);
    expect((await statuses(s.agentId))[s.badId]).toBe('active');
  });
});
