/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the Authentication table (spec §5) and wallet authentication (resolutions §3): the spec's unbound
 * X-Agent-Signature on every guarded call, single use for a change, reads, the request-bound form.
 */
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, Reply } from './support/http';
import { executeOk, getAgent, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, agentSignature, boundAgentSignature, freshTimestamp, newWallet } from './support/wallets';

let m: Marketplace;
let agentServer: AgentServer;
beforeAll(async () => {
  m = await startMarketplace();
  agentServer = await startAgentServer();
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

async function freshAgent(): Promise<{ wallet: Wallet; id: string; name: string }> {
  const wallet = newWallet();
  const a = await registerAgent(m, wallet, { endpoints: { execution: agentServer.url } });
  return { wallet, id: a.id, name: a.name };
}

const patchAgent = (id: string, headers: Record<string, string>, body: unknown = { description: 'changed' }) =>
  api(m, 'PATCH', `/api/v1/agents/${id}`, { body, headers });
const history = (id: string, headers: Record<string, string>, query = '') =>
  api(m, 'GET', `/api/v1/payments/history/${id}${query}`, { headers });

function expectCode(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
}

/** A dispute filed by the payer of an execution of `agent` (the original X-PAYMENT as proof). */
async function disputeAgainst(agentId: string): Promise<string> {
  const run = await executeOk(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { n: 1 } });
  const body = { transactionId: run.body.data.transactionId, reason: 'The output was wrong' };
  const r = await api(m, 'POST', '/api/v1/disputes', { body, headers: { 'X-PAYMENT': run.payment } });
  expectStatus(r, 201, 'file dispute:');
  return r.body.data.disputeId;
}

describe('Authentication', () => {
  it("the spec's unbound X-Agent-Signature authorizes PATCH /api/v1/agents/:id", async () => {
    const a = await freshAgent();
    expectStatus(await patchAgent(a.id, await agentHeaders(a.wallet, a.id)), 200, 'PATCH:');
    expect((await getAgent(m, a.id)).description).toBe('changed');
  });

  it("the spec's unbound X-Agent-Signature authorizes DELETE /api/v1/agents/:id", async () => {
    const a = await freshAgent();
    const r = await api(m, 'DELETE', `/api/v1/agents/${a.id}`, { headers: await agentHeaders(a.wallet, a.id) });
    expectStatus(r, 200, 'DELETE:');
    expect((await getAgent(m, a.id)).status).toBe('inactive');
  });

  it("the spec's unbound X-Agent-Signature authorizes POST /api/v1/payments/withdraw", async () => {
    const a = await freshAgent();
    const body = { agentId: a.id, amount: '1.00', destinationWallet: a.wallet.address };
    const r = await api(m, 'POST', '/api/v1/payments/withdraw', { body, headers: await agentHeaders(a.wallet, a.id) });
    // Authorized: what answers is the balance rule (a new agent has nothing to withdraw), not authentication.
    expectCode(r, 409, 'INSUFFICIENT_BALANCE');
  });

  it("the spec's unbound X-Agent-Signature authorizes webhook create and delete", async () => {
    const a = await freshAgent();
    const body = { agentId: a.id, url: 'https://example.com/hooks', events: ['execution.completed'] };
    const c = await api(m, 'POST', '/api/v1/webhooks', { body, headers: await agentHeaders(a.wallet, a.id) });
    expectStatus(c, 201, 'webhook create:');
    const id = c.body.data.webhookId;
    const d = await api(m, 'DELETE', `/api/v1/webhooks/${id}`, { headers: await agentHeaders(a.wallet, a.id) });
    expectStatus(d, 200, 'webhook delete:');
  });

  it("the spec's unbound X-Agent-Signature authorizes POST /api/v1/disputes/:id/respond", async () => {
    const a = await freshAgent();
    const disputeId = await disputeAgainst(a.id);
    const r = await api(m, 'POST', `/api/v1/disputes/${disputeId}/respond`, {
      body: { response: 'The output matched the request' },
      headers: await agentHeaders(a.wallet, a.id),
    });
    expectStatus(r, 200, 'respond:');
    expect(r.body.data.status).toBe('responded');
  });

  it("the spec's unbound X-Agent-Signature authorizes GET /api/v1/payments/history/:agentId", async () => {
    const a = await freshAgent();
    const r = await history(a.id, await agentHeaders(a.wallet, a.id));
    expectStatus(r, 200, 'history:');
    expect(Array.isArray(r.body.data)).toBe(true);
  });

  it('history without X-Agent-Signature is UNAUTHORIZED, with another wallet FORBIDDEN', async () => {
    const a = await freshAgent();
    expectCode(await history(a.id, {}), 401, 'UNAUTHORIZED');
    expectCode(await history(a.id, { 'X-Agent-Wallet': a.wallet.address }), 401, 'UNAUTHORIZED');
    expectCode(await history(a.id, await agentHeaders(newWallet(), a.id)), 403, 'FORBIDDEN');
  });

  it('X-Agent-Wallet that does not match the registered wallet is FORBIDDEN (403) on a change', async () => {
    const a = await freshAgent();
    const other = newWallet();
    const headers = { 'X-Agent-Wallet': other.address, 'X-Agent-Signature': await agentSignature(a.wallet, a.id) };
    expectCode(await patchAgent(a.id, headers), 403, 'FORBIDDEN');
    const body = { agentId: a.id, amount: '1.00', destinationWallet: other.address };
    const w = await api(m, 'POST', '/api/v1/payments/withdraw', { body, headers: await agentHeaders(other, a.id) });
    expectCode(w, 403, 'FORBIDDEN');
  });

  it('a timestamp outside 5 minutes of server time is UNAUTHORIZED (401), reads and changes alike', async () => {
    const a = await freshAgent();
    for (const ts of [Date.now() - 301_000 - 5_000, Date.now() + 301_000 + 5_000]) {
      expectCode(await history(a.id, await agentHeaders(a.wallet, a.id, ts)), 401, 'UNAUTHORIZED');
      expectCode(await patchAgent(a.id, await agentHeaders(a.wallet, a.id, ts)), 401, 'UNAUTHORIZED');
    }
    const inside = await agentHeaders(a.wallet, a.id, Date.now() - 240_000);
    expectStatus(await patchAgent(a.id, inside), 200, 'PATCH 4 minutes old:');
  });
});

describe('Wallet authentication (resolutions §3)', () => {
  it('an unbound message authorizes one change: the same message again is UNAUTHORIZED (401)', async () => {
    const a = await freshAgent();
    const headers = await agentHeaders(a.wallet, a.id);
    expectStatus(await patchAgent(a.id, headers, { description: 'first' }), 200, 'first PATCH:');
    expectCode(await patchAgent(a.id, headers, { description: 'second' }), 401, 'UNAUTHORIZED');
    const d = await api(m, 'DELETE', `/api/v1/agents/${a.id}`, { headers });
    expectCode(d, 401, 'UNAUTHORIZED');
    const read = await getAgent(m, a.id);
    expect(read).toMatchObject({ description: 'first', status: 'active' });
  });

  it('a message presented on GET /payments/history can no longer authorize a change (401)', async () => {
    const a = await freshAgent();
    const headers = await agentHeaders(a.wallet, a.id);
    expectStatus(await history(a.id, headers), 200, 'history:');
    expectCode(await patchAgent(a.id, headers, { description: 'after a read' }), 401, 'UNAUTHORIZED');
    const body = { agentId: a.id, amount: '1.00', destinationWallet: newWallet().address };
    expectCode(await api(m, 'POST', '/api/v1/payments/withdraw', { body, headers }), 401, 'UNAUTHORIZED');
    expect((await getAgent(m, a.id)).description).not.toBe('after a read');
  });

  it('reads may reuse a message within its window', async () => {
    const a = await freshAgent();
    const headers = await agentHeaders(a.wallet, a.id);
    for (let i = 0; i < 3; i++) expectStatus(await history(a.id, headers), 200, `history read ${i + 1}:`);
  });

  it('the bound form `<METHOD> <path>` authorizes that request; the path has no query string', async () => {
    const a = await freshAgent();
    const path = `/api/v1/agents/${a.id}`;
    const sig = await boundAgentSignature(a.wallet, a.id, 'PATCH', path);
    const headers = { 'X-Agent-Wallet': a.wallet.address, 'X-Agent-Signature': sig };
    expectStatus(await patchAgent(a.id, headers, { description: 'bound' }), 200, 'bound PATCH:');
    expect((await getAgent(m, a.id)).description).toBe('bound');
    const readPath = `/api/v1/payments/history/${a.id}`;
    const readSig = await boundAgentSignature(a.wallet, a.id, 'GET', readPath);
    const r = await history(a.id, { 'X-Agent-Wallet': a.wallet.address, 'X-Agent-Signature': readSig }, '?limit=5');
    expectStatus(r, 200, 'bound read with a query:');
  });

  it('a bound message authorizes only its request: another method or path is FORBIDDEN (403)', async () => {
    const a = await freshAgent();
    const sig = await boundAgentSignature(a.wallet, a.id, 'PATCH', `/api/v1/agents/${a.id}`);
    const headers = { 'X-Agent-Wallet': a.wallet.address, 'X-Agent-Signature': sig };
    expectCode(await api(m, 'DELETE', `/api/v1/agents/${a.id}`, { headers }), 403, 'FORBIDDEN');
    const body = { agentId: a.id, url: 'https://example.com/hooks', events: ['execution.completed'] };
    expectCode(await api(m, 'POST', '/api/v1/webhooks', { body, headers }), 403, 'FORBIDDEN');
    expect((await getAgent(m, a.id)).status).toBe('active');
  });

  it('a bound message with the body hash refuses an altered body (403) and takes the exact bytes', async () => {
    const a = await freshAgent();
    const path = `/api/v1/agents/${a.id}`;
    const raw = JSON.stringify({ description: 'signed body' });
    const sig = await boundAgentSignature(a.wallet, a.id, 'PATCH', path, { body: raw, timestampMs: freshTimestamp() });
    const headers = {
      'X-Agent-Wallet': a.wallet.address,
      'X-Agent-Signature': sig,
      'Content-Type': 'application/json',
    };
    const altered = await api(m, 'PATCH', path, { raw: JSON.stringify({ description: 'altered body' }), headers });
    expectCode(altered, 403, 'FORBIDDEN');
    expect((await getAgent(m, a.id)).description).not.toBe('altered body');
    expectStatus(await api(m, 'PATCH', path, { raw, headers }), 200, 'PATCH with the signed bytes:');
    expect((await getAgent(m, a.id)).description).toBe('signed body');
  });

  it('a bound message for a change is single use too', async () => {
    const a = await freshAgent();
    const sig = await boundAgentSignature(a.wallet, a.id, 'PATCH', `/api/v1/agents/${a.id}`);
    const headers = { 'X-Agent-Wallet': a.wallet.address, 'X-Agent-Signature': sig };
    expectStatus(await patchAgent(a.id, headers, { description: 'once' }), 200, 'first:');
    expectCode(await patchAgent(a.id, headers, { description: 'twice' }), 401, 'UNAUTHORIZED');
    expect((await getAgent(m, a.id)).description).toBe('once');
  });
});
