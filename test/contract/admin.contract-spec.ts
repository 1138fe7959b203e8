/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: platform actions (resolutions §3, §7) on the agent status table (spec §3): POST
 * /api/v1/admin/agents/{id}/suspend and /reinstate and GET /api/v1/admin/agents/suspended (OpenAPI) with
 * X-Admin-Key; only active agents receive executions; an admin's suspension also stops withdrawals. And the
 * dispute transition "48 hours pass with no response" (spec §3), which resolutions §7 makes client_wins.
 *
 * DISPUTE_RESPONSE_WINDOW_S is 3 here (the resolutions' configuration table).
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { file, respond, sell } from './support/disputes';
import { api, expectStatus, poll, Reply, requirement } from './support/http';
import { balance, getAgent, ISO_8601, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet, paymentHeader } from './support/wallets';

const RESPONSE_WINDOW_S = 3;

let m: Marketplace;
let agentServer: AgentServer;
beforeAll(async () => {
  m = await startMarketplace({ env: { DISPUTE_RESPONSE_WINDOW_S: String(RESPONSE_WINDOW_S) } });
  agentServer = await startAgentServer();
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

const admin = (key: string | null = m.adminKey): Record<string, string> => (key === null ? {} : { 'X-Admin-Key': key });
const suspend = (id: string, key?: string | null) =>
  api(m, 'POST', `/api/v1/admin/agents/${id}/suspend`, { body: { reason: 'terms violation' }, headers: admin(key) });
const reinstate = (id: string, key?: string | null) =>
  api(m, 'POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: admin(key) });
const run = (id: string) => ({ targetAgentId: id, capabilityId: 'echo', input: { for: id } });
const callsOf = (id: string) => agentServer.calls.filter((c) => c.body?.input?.for === id).length;

async function newAgent(): Promise<string> {
  return (await registerAgent(m, newWallet(), { endpoints: { execution: agentServer.url } })).id;
}

function expectCode(r: Reply, status: number, code: string): void {
  expect([r.status, r.body?.success, r.body?.error?.code]).toEqual([status, false, code]);
}

/** A paid execute of `id` (the payment signed from the 402 of `payFrom`, an active agent at the same price). */
async function paidRun(id: string, payFrom: string): Promise<Reply> {
  const accept = await requirement(m, 'POST', '/api/v1/execute', run(payFrom));
  const payment = await paymentHeader(newWallet(), accept);
  return api(m, 'POST', '/api/v1/execute', { body: run(id), headers: { 'X-PAYMENT': payment } });
}

async function discovered(id: string): Promise<boolean> {
  const r = await api(m, 'GET', '/api/v1/discover?limit=100');
  expectStatus(r, 200, 'discover:');
  return r.body.data.agents.some((a: { id: string }) => a.id === id);
}

describe('Agent statuses and transitions', () => {
  it('suspend and reinstate need X-Admin-Key: none is UNAUTHORIZED (401), a wrong one FORBIDDEN (403)', async () => {
    const id = await newAgent();
    expectCode(await suspend(id, null), 401, 'UNAUTHORIZED');
    expectCode(await suspend(id, `${m.adminKey}x`), 403, 'FORBIDDEN');
    expect((await getAgent(m, id)).status).toBe('active');
    expectStatus(await suspend(id), 200, 'suspend:');
    expectCode(await reinstate(id, null), 401, 'UNAUTHORIZED');
    expectCode(await reinstate(id, `${m.adminKey}x`), 403, 'FORBIDDEN');
    expect((await getAgent(m, id)).status).toBe('suspended');
  });

  it('suspend and reinstate answer the agent with its new status; an unknown agent is AGENT_NOT_FOUND', async () => {
    const id = await newAgent();
    const s = await suspend(id);
    expectStatus(s, 200, 'suspend:');
    expect(s.body).toMatchObject({ success: true, data: { id, status: 'suspended' } });
    const r = await reinstate(id);
    expectStatus(r, 200, 'reinstate:');
    expect(r.body).toMatchObject({ success: true, data: { id, status: 'active' } });
    expect((await getAgent(m, id)).status).toBe('active');
    expectCode(await suspend('00000000-0000-4000-8000-000000000000'), 404, 'AGENT_NOT_FOUND');
  });

  it('a suspended agent receives no executions, unpaid or paid, and nothing is charged', async () => {
    const [id, payFrom] = [await newAgent(), await newAgent()];
    expectStatus(await suspend(id), 200, 'suspend:');
    const unpaid = await api(m, 'POST', '/api/v1/execute', { body: run(id) });
    expect(unpaid.body.success).toBe(false);
    expect(unpaid.status).toBeGreaterThanOrEqual(400);
    // Refused before payment: no payment is asked for an agent that cannot run.
    expect(unpaid.status).not.toBe(402);
    const paid = await paidRun(id, payFrom);
    expect(paid.body.success).toBe(false);
    expect(paid.status).toBeGreaterThanOrEqual(400);
    expect(callsOf(id)).toBe(0);
    expect(await balance(m, id)).toMatchObject({ totalEarned: '0.000000', executionCount: 0 });
  });

  it('a suspended agent is not discovered; reinstated, it is discovered and executes again', async () => {
    const [id, payFrom] = [await newAgent(), await newAgent()];
    expect(await discovered(id)).toBe(true);
    expectStatus(await suspend(id), 200, 'suspend:');
    expect(await discovered(id)).toBe(false);
    expectStatus(await reinstate(id), 200, 'reinstate:');
    expect(await discovered(id)).toBe(true);
    const r = await paidRun(id, payFrom);
    expectStatus(r, 200, 'execute after reinstatement:');
    expect(r.body.data.status).toBe('completed');
    expect(callsOf(id)).toBe(1);
  });

  it("an admin's suspension stops withdrawals; reinstated, the agent withdraws", async () => {
    const s = await sell(m, agentServer);
    await poll(
      () => balance(m, s.agentId),
      (b) => b.available === '1.900000',
      'the earnings available',
      30_000,
    );
    const withdraw = async () =>
      api(m, 'POST', '/api/v1/payments/withdraw', {
        body: { agentId: s.agentId, amount: '1.50', destinationWallet: newWallet().address },
        headers: await agentHeaders(s.wallet, s.agentId),
      });
    expectStatus(await suspend(s.agentId), 200, 'suspend:');
    const refused = await withdraw();
    expect(refused.body.success).toBe(false);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await balance(m, s.agentId)).available).toBe('1.900000');
    const none = await api(m, 'GET', `/api/v1/payments/withdrawals/${s.agentId}`);
    expect(none.body.data.summary.totalCount).toBe(0);
    expectStatus(await reinstate(s.agentId), 200, 'reinstate:');
    expectStatus(await withdraw(), 201, 'withdraw after reinstatement:');
  });

  it('GET /admin/agents/suspended lists suspended agents with suspendedBy admin and the reason', async () => {
    const id = await newAgent();
    expectStatus(await suspend(id), 200, 'suspend:');
    expectCode(await api(m, 'GET', '/api/v1/admin/agents/suspended'), 401, 'UNAUTHORIZED');
    const list = async () => {
      const r = await api(m, 'GET', '/api/v1/admin/agents/suspended?limit=100', { headers: admin() });
      expectStatus(r, 200, 'suspended list:');
      return r.body.data.agents as Record<string, any>[];
    };
    const entry = (await list()).find((a) => a.id === id);
    expect(entry).toMatchObject({ id, suspendedBy: 'admin', suspendedReason: 'terms violation' });
    expect(entry!.suspendedAt).toMatch(ISO_8601);
    expectStatus(await reinstate(id), 200, 'reinstate:');
    expect((await list()).map((a) => a.id)).not.toContain(id);
  });
});

describe('Dispute transitions', () => {
  const dispute = async (id: string) => (await api(m, 'GET', `/api/v1/disputes/${id}`)).body.data;

  it('pending with no response after DISPUTE_RESPONSE_WINDOW_S resolves client_wins automatically', async () => {
    const s = await sell(m, agentServer);
    const filed = await file(m, s.txId, { 'X-PAYMENT': s.run.payment });
    expectStatus(filed, 201, 'file:');
    const { disputeId, createdAt, respondBy } = filed.body.data;
    expect(Date.parse(respondBy) - Date.parse(createdAt)).toBe(RESPONSE_WINDOW_S * 1000);
    const before = (await getAgent(m, s.agentId)).reputation_score;
    const d = await poll(
      () => dispute(disputeId),
      (x) => x?.status === 'resolved',
      'the dispute resolved at its deadline',
      30_000,
    );
    expect(Date.parse(d.resolvedAt)).toBeGreaterThanOrEqual(Date.parse(respondBy));
    expect(d.resolution).toMatchObject({
      outcome: 'client_wins',
      refundAmount: '2.000000',
      releasedAmount: '0.000000',
    });
    expect(d.agentResponse).toBeNull();
    expect(await balance(m, s.agentId)).toMatchObject({ available: '0.000000', totalDisputed: '0.000000' });
    expect((await getAgent(m, s.agentId)).reputation_score).toBe(before - 5);
  });

  it('a dispute the agent answered in time is not resolved automatically', async () => {
    const answered = await sell(m, agentServer);
    const silent = await sell(m, agentServer, answered);
    const ids: string[] = [];
    for (const s of [answered, silent]) {
      const r = await file(m, s.txId, { 'X-PAYMENT': s.run.payment });
      expectStatus(r, 201, 'file:');
      ids.push(r.body.data.disputeId);
    }
    expectStatus(await respond(m, answered, ids[0], 'The output was right'), 200, 'respond in time:');
    const respondBy = Date.parse((await dispute(ids[0])).respondBy);
    // The deadline passed and the platform acted on it: the silent one is resolved.
    await poll(
      async () => ({ now: Date.now(), silent: await dispute(ids[1]) }),
      (x) => x.silent?.status === 'resolved' && x.now > respondBy + 1000,
      'the deadline passed and the unanswered dispute resolved',
      30_000,
    );
    expect(await dispute(ids[0])).toMatchObject({
      status: 'responded',
      agentResponse: 'The output was right',
      resolution: null,
    });
  });
});
