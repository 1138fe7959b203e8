/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: paying for an execution (spec §4 "Execution" rules 2-3, §5 "Authentication", resolutions §2 and §4):
 * idempotency keys, replayed and invalid payments, variable pricing with pricing.maxPrice.
 */
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, requirement } from './support/http';
import { capability, earned, executeOk, micro, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet, paymentHeader } from './support/wallets';

let m: Marketplace;
let agent: AgentServer;
let agentId: string;
let payer: Wallet;
const echo = (req: { body: any }) => ({ body: { output: { echo: req.body?.input } } });
const body = (input: Record<string, unknown> = { n: 1 }) => ({ targetAgentId: agentId, capabilityId: 'echo', input });

beforeAll(async () => {
  m = await startMarketplace();
  agent = await startAgentServer(echo);
  agentId = (await registerAgent(m, newWallet(), { endpoints: { execution: agent.url } })).id;
}, 120_000);
beforeEach(() => {
  agent.handler = echo;
  payer = newWallet();
});
afterAll(async () => {
  await agent?.close();
  await m?.stop();
});

async function totalTransactions(): Promise<number> {
  const r = await api(m, 'GET', '/api/v1/payments/stats');
  expectStatus(r, 200, 'stats:');
  return r.body.data.totalTransactions;
}

/** POST /execute with a fresh payment of `payer` for `b` (signed from the 402 of the same body). */
async function payAndSend(b: Record<string, unknown>, headers: Record<string, string> = {}) {
  const accept = await requirement(m, 'POST', '/api/v1/execute', { ...b, idempotencyKey: undefined });
  const payment = await paymentHeader(payer, accept);
  const reply = await api(m, 'POST', '/api/v1/execute', { body: b, headers: { ...headers, 'X-PAYMENT': payment } });
  return { ...reply, payment };
}

describe('Execution', () => {
  it.each([
    ['the body', (key: string) => ({ body: { ...body(), idempotencyKey: key }, headers: {} })],
    ['the Idempotency-Key header', (key: string) => ({ body: body(), headers: { 'Idempotency-Key': key } })],
  ])('answers a repeat with the same key in %s from its cache, charging once', async (_where, request) => {
    const key = `order-${Date.now()}-${Math.random()}`;
    const { body: b, headers } = request(key);
    const first = await payAndSend(b, headers);
    expectStatus(first, 200, 'first:');
    const [calls, earnings, txs] = [agent.calls.length, await earned(m, agentId), await totalTransactions()];
    // An x402 client signs a fresh authorization on every retry: the key, not the payment, decides.
    const repeat = await payAndSend(b, headers);
    expectStatus(repeat, 200, 'repeat:');
    expect(repeat.body.data).toMatchObject({ requestId: first.body.data.requestId, output: first.body.data.output });
    expect(agent.calls.length).toBe(calls);
    expect(await earned(m, agentId)).toBe(earnings);
    expect(await totalTransactions()).toBe(txs);
    // The repeat's own authorization was not used: it still pays another request.
    const other = await api(m, 'POST', '/api/v1/execute', {
      body: body({ n: 2 }),
      headers: { 'X-PAYMENT': repeat.payment },
    });
    expectStatus(other, 200, 'the repeat payment, unused:');
  });

  it('answers the same key with other input 409 IDEMPOTENCY_CONFLICT, charging nothing', async () => {
    const key = `conflict-${Date.now()}`;
    expectStatus(await payAndSend({ ...body({ n: 1 }), idempotencyKey: key }), 200, 'first:');
    const [calls, earnings] = [agent.calls.length, await earned(m, agentId)];
    const r = await payAndSend({ ...body({ n: 99 }), idempotencyKey: key });
    expect([r.status, r.body.error?.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(agent.calls.length).toBe(calls);
    expect(await earned(m, agentId)).toBe(earnings);
  });

  it('refuses a key in the body and a different one in the Idempotency-Key header with 400', async () => {
    const r = await payAndSend({ ...body(), idempotencyKey: 'body-key-1' }, { 'Idempotency-Key': 'header-key-2' });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    const unused = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'X-PAYMENT': r.payment } });
    expectStatus(unused, 200, 'the refused request left its payment unused:');
  });
});

describe('Authentication', () => {
  it('refuses a payment whose nonce was already used with 409 PAYMENT_REPLAYED', async () => {
    const first = await executeOk(m, payer, body());
    const calls = agent.calls.length;
    const r = await api(m, 'POST', '/api/v1/execute', {
      body: body({ n: 5 }),
      headers: { 'X-PAYMENT': first.payment },
    });
    expect([r.status, r.body.error?.code]).toEqual([409, 'PAYMENT_REPLAYED']);
    expect(agent.calls.length).toBe(calls);
  });

  it.each([
    ['a wrong amount', { value: '10999' }, 'invalid_exact_evm_payload_authorization_value'],
    ['another recipient', { to: newWallet().address }, 'invalid_exact_evm_payload_recipient_mismatch'],
    [
      'an expired authorization',
      { validBefore: Math.floor(Date.now() / 1000) - 60 },
      'invalid_exact_evm_payload_authorization_valid_before',
    ],
  ])('refuses %s with 402 PAYMENT_INVALID and the x402 reason, charging nothing', async (_what, forgery, reason) => {
    const accept = await requirement(m, 'POST', '/api/v1/execute', body());
    const [calls, earnings] = [agent.calls.length, await earned(m, agentId)];
    const payment = await paymentHeader(payer, accept, forgery);
    const r = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'X-PAYMENT': payment } });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason } });
    expect(agent.calls.length).toBe(calls);
    expect(await earned(m, agentId)).toBe(earnings);
  });
});

describe('Capability', () => {
  const tokens = capability({
    id: 'tokens',
    name: 'Per token',
    pricing: { model: 'per-token', basePrice: '0.002000', currency: 'USDC', maxPrice: '0.010000' },
  });
  const dynamic = capability({
    id: 'quote',
    name: 'Dynamic',
    pricing: { model: 'dynamic', basePrice: '0.000000', currency: 'USDC', maxPrice: '0.010000' },
  });
  let variableId: string;
  beforeAll(async () => {
    const reg = await registerAgent(m, newWallet(), {
      capabilities: [tokens, dynamic],
      endpoints: { execution: agent.url },
    });
    variableId = reg.id;
  });

  it.each([
    ['per-token, under the cap', 'tokens', { usage: { tokens: 2500 } }, 5_000n],
    ['per-token, over the cap', 'tokens', { usage: { tokens: 10_000 } }, 10_000n],
    ['dynamic, under the cap', 'quote', { cost: '0.003' }, 3_000n],
  ])('charges %s: the client pays pricing.maxPrice and is charged min(actual, cap)', async (_w, cap, extra, fee) => {
    agent.handler = () => ({ body: { output: { done: true }, ...extra } });
    const b = { targetAgentId: variableId, capabilityId: cap, input: {} };
    const accept = await requirement(m, 'POST', '/api/v1/execute', b);
    expect(accept.maxAmountRequired).toBe('11000');
    const before = await earned(m, variableId);
    const r = await executeOk(m, payer, b);
    expect(micro(r.body.data.cost.agentFee)).toBe(fee);
    expect(micro(r.body.data.cost.platformFee)).toBe(1_000n);
    expect(micro(r.body.data.cost.total)).toBe(fee + 1_000n);
    const cut = (fee * 5n + 50n) / 100n;
    expect(await earned(m, variableId)).toBe(before + fee - cut);
  });
});
