/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the Webhook subscription resource (spec §2), the Webhooks endpoints (spec §4), the webhook status
 * table (spec §3), the outbound URL rule (resolutions §9). Delivery: events.contract-spec.ts.
 *
 * This marketplace runs with the production outbound rule (OUTBOUND_ALLOW_HTTP and OUTBOUND_ALLOW_PRIVATE
 * off), so the HTTPS rule is tested; nothing here connects anywhere, so public IP literals serve as URLs.
 */
import { Wallet } from 'ethers';
import { api, expectStatus } from './support/http';
import { ISO_8601, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

let m: Marketplace;
beforeAll(async () => {
  m = await startMarketplace({ env: { OUTBOUND_ALLOW_HTTP: 'false', OUTBOUND_ALLOW_PRIVATE: 'false' } });
}, 120_000);
afterAll(() => m?.stop());

const HOOK_URL = 'https://1.1.1.1/hooks/agora';
const SPEC_EVENTS = [
  'execution.completed',
  'execution.failed',
  'dispute.filed',
  'dispute.resolved',
  'escrow.released',
  'withdrawal.completed',
  'withdrawal.failed',
];

async function owner(): Promise<{ wallet: Wallet; id: string }> {
  const wallet = newWallet();
  const a = await registerAgent(m, wallet, { endpoints: { execution: 'https://1.1.1.1/execute' } });
  return { wallet, id: a.id };
}

async function create(o: { wallet: Wallet; id: string }, body: Record<string, unknown>) {
  return api(m, 'POST', '/api/v1/webhooks', {
    body: { agentId: o.id, url: HOOK_URL, events: ['execution.completed'], ...body },
    headers: await agentHeaders(o.wallet, o.id),
  });
}

const list = (agentId: string, query = '') => api(m, 'GET', `/api/v1/webhooks/agent/${agentId}${query}`);

function expectValidationError(r: { status: number; body: any }): void {
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
}

describe('Webhook subscription', () => {
  it('POST /webhooks answers webhookId wh_, agentId, url, events, status active, createdAt; no secret', async () => {
    const o = await owner();
    const secret = 'a-webhook-secret-of-32-characters!';
    const r = await create(o, { events: ['execution.completed', 'dispute.filed'], secret });
    expectStatus(r, 201, 'create:');
    const d = r.body.data;
    expect(d.webhookId).toMatch(/^wh_/);
    expect(d).toMatchObject({
      agentId: o.id,
      url: HOOK_URL,
      events: ['execution.completed', 'dispute.filed'],
      status: 'active',
    });
    expect(d.createdAt).toMatch(ISO_8601);
    expect(r.text).not.toContain(secret);
    expect(d).not.toHaveProperty('secret');
  });

  it('takes every event name of the spec', async () => {
    const o = await owner();
    const r = await create(o, { events: SPEC_EVENTS });
    expectStatus(r, 201, 'create with every event:');
    expect([...r.body.data.events].sort()).toEqual([...SPEC_EVENTS].sort());
  });

  it('refuses an event name the spec does not list, and events that are not a list of names', async () => {
    const o = await owner();
    expectValidationError(await create(o, { events: ['execution.exploded'] }));
    expectValidationError(await create(o, { events: 'execution.completed' }));
    expectValidationError(await create(o, { events: [42] }));
  });

  it('refuses a url that is not a URL, and a url that is not HTTPS', async () => {
    const o = await owner();
    expectValidationError(await create(o, { url: 'not a url' }));
    expectValidationError(await create(o, { url: 'http://1.1.1.1/hooks' }));
    expectValidationError(await create(o, { url: 'ftp://1.1.1.1/hooks' }));
  });

  it('refuses a url on a loopback or private address (the outbound guard)', async () => {
    const o = await owner();
    for (const url of ['https://127.0.0.1/hooks', 'https://10.0.0.1/hooks', 'https://169.254.169.254/latest'])
      expectValidationError(await create(o, { url }));
    expect((await list(o.id)).body.data.total).toBe(0);
  });
});

describe('Webhooks', () => {
  it('POST /webhooks needs the agent wallet: no signature 401, another wallet 403', async () => {
    const o = await owner();
    const body = { agentId: o.id, url: HOOK_URL, events: ['execution.completed'] };
    const none = await api(m, 'POST', '/api/v1/webhooks', { body });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const other = await api(m, 'POST', '/api/v1/webhooks', { body, headers: await agentHeaders(newWallet(), o.id) });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    expect((await list(o.id)).body.data.total).toBe(0);
  });

  it("GET /webhooks/agent/:agentId lists the agent's subscriptions with total, never a secret", async () => {
    const o = await owner();
    const secret = 'another-secret-of-enough-length-42';
    const a = (await create(o, { secret })).body.data;
    const b = (await create(o, { events: ['escrow.released'] })).body.data;
    const r = await list(o.id);
    expectStatus(r, 200, 'list:');
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.webhooks.map((w: any) => w.id).sort()).toEqual([a.webhookId, b.webhookId].sort());
    for (const w of r.body.data.webhooks) {
      expect(w).toMatchObject({ url: HOOK_URL, status: 'active', events: expect.any(Array) });
      expect(w.createdAt).toMatch(ISO_8601);
      expect(w).not.toHaveProperty('secret');
    }
    expect(r.text).not.toContain(secret);
    expect((await list((await owner()).id)).body.data).toEqual({ webhooks: [], total: 0 });
  });

  it('DELETE /webhooks/:id answers data.message and id; the subscription is gone from the list', async () => {
    const o = await owner();
    const id = (await create(o, {})).body.data.webhookId;
    const r = await api(m, 'DELETE', `/api/v1/webhooks/${id}`, { headers: await agentHeaders(o.wallet, o.id) });
    expectStatus(r, 200, 'delete:');
    expect(r.body).toMatchObject({ success: true, data: { message: expect.any(String), id } });
    expect((await list(o.id)).body.data).toEqual({ webhooks: [], total: 0 });
  });

  it("DELETE /webhooks/:id by another agent's wallet is refused and the subscription stays", async () => {
    const o = await owner();
    const intruder = await owner();
    const id = (await create(o, {})).body.data.webhookId;
    const r = await api(m, 'DELETE', `/api/v1/webhooks/${id}`, {
      headers: await agentHeaders(intruder.wallet, intruder.id),
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
    expect((await list(o.id)).body.data.total).toBe(1);
  });

  it('DELETE /webhooks/:id of an unknown id is WEBHOOK_NOT_FOUND (404)', async () => {
    const o = await owner();
    const r = await api(m, 'DELETE', '/api/v1/webhooks/wh_doesnotexist', {
      headers: await agentHeaders(o.wallet, o.id),
    });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'WEBHOOK_NOT_FOUND' } });
  });
});
