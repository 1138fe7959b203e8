/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the Agent and Capability resources (spec §2), the Agents endpoints (spec §4), the agent statuses and
 * transitions (spec §3), registration's payment (resolutions §2). PATCH/DELETE: agents-patch.contract-spec.ts.
 */
import { api, expectStatus } from './support/http';
import {
  agentBody,
  capability,
  getAgent,
  ISO_8601,
  postAgent,
  registerAgent,
  registerAgentReply,
  UUID,
} from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet } from './support/wallets';

let m: Marketplace;
beforeAll(async () => {
  m = await startMarketplace();
}, 120_000);
afterAll(() => m?.stop());

/** A registration that must be refused with VALIDATION_ERROR naming `field`. */
async function expectInvalid(overrides: Record<string, unknown>, field: string): Promise<void> {
  const wallet = newWallet();
  const r = await postAgent(m, agentBody(wallet, overrides), wallet);
  expectStatus(r, 400, `registration with bad ${field}:`);
  expect(r.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  expect(Array.isArray(r.body.error.details?.errors)).toBe(true);
  expect(r.body.error.details.errors.length).toBeGreaterThan(0);
  expect(JSON.stringify(r.body.error.details.errors)).toContain(field);
}

describe('Agent', () => {
  it('is created with an assigned UUID, reputation_score 50, status active and ISO timestamps', async () => {
    const wallet = newWallet();
    const body = agentBody(wallet, { description: 'Described', metadata: { team: 'contract', n: 1 } });
    const r = await registerAgentReply(m, wallet, body);
    expectStatus(r, 201, 'registration:');
    const a = r.body.data;
    expect(r.body.success).toBe(true);
    expect(a.id).toMatch(UUID);
    expect(a.wallet.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(a).toMatchObject({ name: body.name, reputation_score: 50, status: 'active' });
    expect(a.capabilities).toEqual([expect.objectContaining(capability())]);
    expect(a.endpoints).toMatchObject({ execution: body.endpoints.execution });
    expect(a.created_at).toMatch(ISO_8601);
  });

  it('is read back with description, metadata, updated_at and every registered field', async () => {
    const wallet = newWallet();
    const created = await registerAgent(m, wallet, { description: 'Read me', metadata: { k: ['v', 1] } });
    const a = await getAgent(m, created.id);
    expect(a).toMatchObject({
      id: created.id,
      name: created.name,
      description: 'Read me',
      metadata: { k: ['v', 1] },
      reputation_score: 50,
      status: 'active',
      created_at: created.created_at,
    });
    expect(a.wallet.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(a.capabilities).toEqual(created.capabilities);
    expect(a.endpoints).toEqual(created.endpoints);
    expect(a.updated_at).toMatch(ISO_8601);
  });

  it('takes endpoints.health beside endpoints.execution', async () => {
    const endpoints = { execution: 'http://127.0.0.1:9/execute', health: 'http://127.0.0.1:9/health' };
    const a = await registerAgent(m, newWallet(), { endpoints });
    expect((await getAgent(m, a.id)).endpoints).toMatchObject(endpoints);
  });

  it('accepts a name of 3 and of 100 characters and a description of 1000', async () => {
    await registerAgent(m, newWallet(), { name: 'abc' });
    await registerAgent(m, newWallet(), { name: 'n'.repeat(100), description: 'd'.repeat(1000) });
  });

  it('refuses a wallet that is not 0x followed by 40 hex characters', async () => {
    await expectInvalid({ wallet: '0x1234' }, 'wallet');
    await expectInvalid({ wallet: `0x${'g'.repeat(40)}` }, 'wallet');
  });

  it('refuses a name shorter than 3 or longer than 100 characters', async () => {
    await expectInvalid({ name: 'ab' }, 'name');
    await expectInvalid({ name: 'n'.repeat(101) }, 'name');
  });

  it('refuses a description over 1000 characters', async () => {
    await expectInvalid({ description: 'd'.repeat(1001) }, 'description');
  });

  it('requires name, capabilities and endpoints.execution', async () => {
    await expectInvalid({ name: undefined }, 'name');
    await expectInvalid({ capabilities: undefined }, 'capabilities');
    await expectInvalid({ endpoints: { health: 'http://127.0.0.1:9/health' } }, 'execution');
  });

  it('refuses metadata that is not an object', async () => {
    await expectInvalid({ metadata: 'text' }, 'metadata');
  });
});

describe('Capability (element of Agent.capabilities)', () => {
  it('keeps id, name, description, inputSchema, outputSchema and pricing as registered', async () => {
    const cap = capability({
      id: 'summarize',
      name: 'Summarize',
      description: 'Summarizes a text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      outputSchema: { type: 'object', properties: { summary: { type: 'string' } } },
      pricing: { model: 'per-request', basePrice: '0.250000', currency: 'USDT' },
    });
    const a = await registerAgent(m, newWallet(), { capabilities: [cap, capability({ id: 'second' })] });
    expect((await getAgent(m, a.id)).capabilities).toEqual([
      expect.objectContaining(cap),
      expect.objectContaining({ id: 'second' }),
    ]);
  });

  it('requires id, name and description', async () => {
    await expectInvalid({ capabilities: [capability({ id: undefined })] }, 'id');
    await expectInvalid({ capabilities: [capability({ name: undefined })] }, 'name');
    await expectInvalid({ capabilities: [capability({ description: undefined })] }, 'description');
  });

  it('refuses two capabilities with the same id on one agent', async () => {
    await expectInvalid({ capabilities: [capability(), capability({ name: 'Other' })] }, 'id');
  });

  it('refuses a pricing model or currency outside the listed values', async () => {
    const pricing = { model: 'per-request', basePrice: '0.010000', currency: 'USDC' };
    await expectInvalid({ capabilities: [capability({ pricing: { ...pricing, model: 'per-year' } })] }, 'model');
    await expectInvalid({ capabilities: [capability({ pricing: { ...pricing, currency: 'EUR' } })] }, 'currency');
  });

  it('takes basePrice as a decimal string of at most six decimals', async () => {
    const pricing = { model: 'per-request', currency: 'USDC' };
    await expectInvalid({ capabilities: [capability({ pricing: { ...pricing, basePrice: 'cheap' } })] }, 'basePrice');
    await expectInvalid({ capabilities: [capability({ pricing: { ...pricing, basePrice: 0.5 } })] }, 'basePrice');
    await expectInvalid(
      { capabilities: [capability({ pricing: { ...pricing, basePrice: '0.0000001' } })] },
      'basePrice',
    );
    await registerAgent(m, newWallet(), { capabilities: [capability({ pricing: { ...pricing, basePrice: '1.5' } })] });
  });
});

describe('Agents', () => {
  it('POST /api/v1/agents without payment answers 402 asking for the 0.10 USDC registration fee', async () => {
    const r = await api(m, 'POST', '/api/v1/agents', { body: agentBody(newWallet()) });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ success: false, error: { code: 'PAYMENT_REQUIRED' } });
    expect(r.body.accepts[0].maxAmountRequired).toBe('100000');
  });

  it('POST /api/v1/agents paid by another wallet than the one registered is WALLET_MISMATCH (403)', async () => {
    const r = await postAgent(m, agentBody(newWallet()), newWallet());
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, error: { code: 'WALLET_MISMATCH' } });
  });

  it('POST /api/v1/agents with an invalid body is VALIDATION_ERROR (400) listing each field', async () => {
    const wallet = newWallet();
    const r = await postAgent(m, agentBody(wallet, { name: 'x', description: 'd'.repeat(1001) }), wallet);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    const errors = JSON.stringify(r.body.error.details.errors);
    expect(errors).toContain('name');
    expect(errors).toContain('description');
  });

  it('GET /api/v1/agents/:id returns chainSettings', async () => {
    const a = await registerAgent(m, newWallet());
    const read = await getAgent(m, a.id);
    expect(read.chainSettings).toEqual(
      expect.objectContaining({
        chain_enabled: expect.any(Boolean),
        chain_max_depth: expect.any(Number),
        chain_allowed_callers: expect.any(Array),
        chain_blocked_callers: expect.any(Array),
      }),
    );
  });

  it('GET /api/v1/agents/:id of an unknown id is AGENT_NOT_FOUND (404)', async () => {
    const r = await api(m, 'GET', '/api/v1/agents/00000000-0000-4000-8000-000000000000');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'AGENT_NOT_FOUND', message: expect.any(String) } });
  });

  it('GET /api/v1/agents/:id of something that is not a UUID is refused in the envelope', async () => {
    const r = await api(m, 'GET', '/api/v1/agents/not-a-uuid');
    expect([400, 404]).toContain(r.status);
    expect(r.body.success).toBe(false);
    expect(['VALIDATION_ERROR', 'AGENT_NOT_FOUND']).toContain(r.body.error.code);
  });
});
