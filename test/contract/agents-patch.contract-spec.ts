/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: PATCH and DELETE /api/v1/agents/:id (spec §4 Agents), their wallet authentication (spec §5, resolutions
 * §3, the spec's unbound signature form) and the agent statuses and transitions (spec §3).
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus } from './support/http';
import { capability, execute, getAgent, ISO_8601, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, agentSignature, highSTwin, newWallet } from './support/wallets';

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

async function patch(
  wallet: ReturnType<typeof newWallet>,
  id: string,
  body: unknown,
  headers?: Record<string, string>,
) {
  return api(m, 'PATCH', `/api/v1/agents/${id}`, { body, headers: headers ?? (await agentHeaders(wallet, id)) });
}

async function owned() {
  const wallet = newWallet();
  const agent = await registerAgent(m, wallet, { endpoints: { execution: agentServer.url } });
  return { wallet, agent, id: agent.id as string };
}

describe('Agents', () => {
  it.each([
    ['name', 'Renamed agent'],
    ['description', 'A new description'],
    ['metadata', { region: 'eu', tags: ['a', 'b'] }],
    ['capabilities', [capability({ id: 'other', name: 'Other', description: 'Another capability' })]],
    ['endpoints', { execution: 'http://127.0.0.1:9/run', health: 'http://127.0.0.1:9/ping' }],
  ])('PATCH /api/v1/agents/:id changes %s alone', async (field, value) => {
    const { wallet, id, agent } = await owned();
    const r = await patch(wallet, id, { [field]: value });
    expectStatus(r, 200, `PATCH ${field}:`);
    expect(r.body.success).toBe(true);
    const read = await getAgent(m, id);
    if (typeof value === 'string') expect(read[field]).toBe(value);
    else if (Array.isArray(value)) expect(read[field]).toEqual([expect.objectContaining(value[0])]);
    else expect(read[field]).toEqual(expect.objectContaining(value));
    for (const other of ['name', 'description', 'metadata', 'capabilities', 'endpoints'].filter((f) => f !== field))
      if (agent[other] !== undefined) expect(read[other]).toEqual(agent[other]);
    expect(read.updated_at).toMatch(ISO_8601);
    expect(Date.parse(read.updated_at)).toBeGreaterThanOrEqual(Date.parse(agent.created_at));
  });

  it('PATCH sets chainSettings, returned by GET /api/v1/agents/:id', async () => {
    const { wallet, id } = await owned();
    const caller = (await owned()).id;
    const chainSettings = {
      chain_enabled: false,
      chain_max_depth: 3,
      chain_allowed_callers: [caller],
      chain_blocked_callers: [],
    };
    expectStatus(await patch(wallet, id, { chainSettings }), 200, 'PATCH chainSettings:');
    expect((await getAgent(m, id)).chainSettings).toMatchObject(chainSettings);
  });

  it('PATCH refuses a status other than active or inactive, and an invalid field, with VALIDATION_ERROR', async () => {
    const { wallet, id } = await owned();
    for (const body of [{ status: 'suspended' }, { status: 'deleted' }, { name: 'ab' }]) {
      const r = await patch(wallet, id, body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await getAgent(m, id)).status).toBe('active');
  });

  it('DELETE /api/v1/agents/:id answers data.message and id, and deactivates without removing', async () => {
    const { wallet, id } = await owned();
    const r = await api(m, 'DELETE', `/api/v1/agents/${id}`, { headers: await agentHeaders(wallet, id) });
    expectStatus(r, 200, 'DELETE:');
    expect(r.body).toMatchObject({ success: true, data: { message: expect.any(String), id } });
    expect((await getAgent(m, id)).status).toBe('inactive');
  });
});

describe('Authentication (X-Agent-Wallet and X-Agent-Signature on PATCH and DELETE agent)', () => {
  async function expectRefused(headers: Record<string, string>, status: 401 | 403, id: string, wallet: any) {
    const code = status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
    const r = await patch(wallet, id, { name: 'Hijacked name' }, headers);
    expect(r.status).toBe(status);
    expect(r.body).toMatchObject({ success: false, error: { code } });
    const d = await api(m, 'DELETE', `/api/v1/agents/${id}`, { headers });
    expect(d.status).toBe(status);
    expect(d.body).toMatchObject({ success: false, error: { code } });
    const read = await getAgent(m, id);
    expect(read.name).not.toBe('Hijacked name');
    expect(read.status).toBe('active');
  }

  it('refuses a call without the headers, or with X-Agent-Wallet alone, as UNAUTHORIZED (401)', async () => {
    const { wallet, id } = await owned();
    await expectRefused({}, 401, id, wallet);
    await expectRefused({ 'X-Agent-Wallet': wallet.address }, 401, id, wallet);
  });

  it("refuses a wallet that is not the agent's as FORBIDDEN (403)", async () => {
    const { wallet, id } = await owned();
    const stranger = newWallet();
    await expectRefused(await agentHeaders(stranger, id), 403, id, wallet);
  });

  it('refuses the right X-Agent-Wallet with a signature by another wallet as FORBIDDEN (403)', async () => {
    const { wallet, id } = await owned();
    const other = newWallet();
    const headers = { 'X-Agent-Wallet': wallet.address, 'X-Agent-Signature': await agentSignature(other, id) };
    await expectRefused(headers, 403, id, wallet);
  });

  it('refuses a timestamp more than 5 minutes from server time as UNAUTHORIZED (401)', async () => {
    const { wallet, id } = await owned();
    await expectRefused(await agentHeaders(wallet, id, Date.now() - 6 * 60_000), 401, id, wallet);
    await expectRefused(await agentHeaders(wallet, id, Date.now() + 6 * 60_000), 401, id, wallet);
  });

  it('refuses a high-s (malleable) signature and malformed values as UNAUTHORIZED (401)', async () => {
    const { wallet, id } = await owned();
    const good = await agentSignature(wallet, id);
    const [message, sig] = good.split(':sig:');
    const bad = [`${message}:sig:${highSTwin(sig)}`, `${message}:sig:0x1234`, 'garbage', `${message}:sig:`, message];
    for (const value of bad)
      await expectRefused({ 'X-Agent-Wallet': wallet.address, 'X-Agent-Signature': value }, 401, id, wallet);
  });

  it('refuses a signature naming another agent of the same wallet', async () => {
    const wallet = newWallet();
    const a = await registerAgent(m, wallet);
    const b = await registerAgent(m, wallet);
    const headers = { 'X-Agent-Wallet': wallet.address, 'X-Agent-Signature': await agentSignature(wallet, b.id) };
    const r = await patch(wallet, a.id, { name: 'Crossed over' }, headers);
    expect([401, 403]).toContain(r.status);
    expect(r.body.success).toBe(false);
    expect((await getAgent(m, a.id)).name).toBe(a.name);
  });
});

describe('Agent statuses and transitions', () => {
  const run = (id: string) => ({ targetAgentId: id, capabilityId: 'echo', input: { text: 'hi' } });

  it('active -> inactive -> active by PATCH with status, by the owner', async () => {
    const { wallet, id } = await owned();
    expectStatus(await patch(wallet, id, { status: 'inactive' }), 200, 'PATCH inactive:');
    expect((await getAgent(m, id)).status).toBe('inactive');
    expectStatus(await patch(wallet, id, { status: 'active' }), 200, 'PATCH active:');
    expect((await getAgent(m, id)).status).toBe('active');
  });

  it('only active agents receive executions: an inactive one is AGENT_NOT_FOUND and is never called', async () => {
    const { wallet, id } = await owned();
    expectStatus(await patch(wallet, id, { status: 'inactive' }), 200, 'PATCH inactive:');
    const before = agentServer.calls.length;
    const r = await api(m, 'POST', '/api/v1/execute', { body: run(id) });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('AGENT_NOT_FOUND');
    expect(agentServer.calls.length).toBe(before);
    expectStatus(await patch(wallet, id, { status: 'active' }), 200, 'PATCH active:');
    const ok = await execute(m, newWallet(), run(id));
    expectStatus(ok, 200, 'execute after reactivation:');
    expect(agentServer.calls.some((c) => c.body?.requestId === ok.body.data.requestId)).toBe(true);
  });

  it('DELETE makes an active agent inactive; it receives no executions', async () => {
    const { wallet, id } = await owned();
    expectStatus(await api(m, 'DELETE', `/api/v1/agents/${id}`, { headers: await agentHeaders(wallet, id) }), 200);
    const r = await api(m, 'POST', '/api/v1/execute', { body: run(id) });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('AGENT_NOT_FOUND');
  });

  it('a platform action suspends an agent: the owner cannot reactivate it, it receives no executions', async () => {
    const { wallet, id } = await owned();
    const admin = { 'X-Admin-Key': m.adminKey };
    const s = await api(m, 'POST', `/api/v1/admin/agents/${id}/suspend`, { body: { reason: 'terms' }, headers: admin });
    expectStatus(s, 200, 'suspend:');
    expect((await getAgent(m, id)).status).toBe('suspended');
    const p = await patch(wallet, id, { status: 'active' });
    expect(p.status).toBeGreaterThanOrEqual(400);
    expect(p.body.success).toBe(false);
    expect((await getAgent(m, id)).status).toBe('suspended');
    const before = agentServer.calls.length;
    const r = await api(m, 'POST', '/api/v1/execute', { body: run(id) });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).not.toBe(402);
    expect(agentServer.calls.length).toBe(before);
    expectStatus(await api(m, 'POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: admin }), 200, 'reinstate:');
    expect((await getAgent(m, id)).status).toBe('active');
  });
});
