/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the cost calculation table (spec §1, resolutions §1: half-up cut), the Transaction resource (spec §2),
 * the Payments endpoints history, tx/:txId and stats (spec §4).
 */
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, PaidReply } from './support/http';
import { balance, capability, executeOk, ISO_8601, micro, registerAgent, SIX_DECIMALS, usdc } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

let m: Marketplace;
let agentServer: AgentServer;
/** Capabilities priced to show the 5% cut rounded half-up to six decimals: [price, cut, earnings]. */
const PRICES: Record<string, [string, string, string]> = {
  two: ['2.00', '0.100000', '1.900000'],
  tiny10: ['0.000010', '0.000001', '0.000009'],
  tiny29: ['0.000029', '0.000001', '0.000028'],
  tiny30: ['0.000030', '0.000002', '0.000028'],
  odd: ['1.234567', '0.061728', '1.172839'],
};
let seller: { wallet: Wallet; id: string };
/** One execution of each capability, by a new payer each. */
const runs: Record<string, PaidReply> = {};

beforeAll(async () => {
  m = await startMarketplace();
  agentServer = await startAgentServer();
  const wallet = newWallet();
  const capabilities = Object.entries(PRICES).map(([id, [basePrice]]) =>
    capability({ id, name: `Priced ${id}`, pricing: { model: 'per-request', basePrice, currency: 'USDC' } }),
  );
  const a = await registerAgent(m, wallet, { endpoints: { execution: agentServer.url }, capabilities });
  seller = { wallet, id: a.id };
  for (const id of Object.keys(PRICES))
    runs[id] = await executeOk(m, newWallet(), { targetAgentId: a.id, capabilityId: id, input: { id } });
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

async function tx(txId: string): Promise<Record<string, any>> {
  const r = await api(m, 'GET', `/api/v1/payments/tx/${txId}`);
  expectStatus(r, 200, `GET tx ${txId}:`);
  return r.body.data;
}

/** Micro-units of a price of at most six decimals ("2.00" -> 2000000n). */
const priceMicro = (p: string) => micro(`${p.split('.')[0]}.${(p.split('.')[1] ?? '').padEnd(6, '0')}`);

describe('Cost calculation', () => {
  it.each(Object.keys(PRICES))('client pays platform fee 0.001 + agent fee (%s)', async (id) => {
    const fee = priceMicro(PRICES[id][0]);
    expect(runs[id].accept.maxAmountRequired).toBe(String(fee + 1000n));
    expect(runs[id].body.data.cost).toMatchObject({
      agentFee: usdc(fee),
      platformFee: '0.001000',
      total: usdc(fee + 1000n),
    });
  });

  it.each(Object.keys(PRICES))('platform cut 5%% half-up, agent earnings 95%%, summing to the fee (%s)', async (id) => {
    const [price, cut, earnings] = PRICES[id];
    const t = await tx(runs[id].body.data.transactionId);
    expect(t).toMatchObject({ platformCut: cut, agent_earnings: earnings });
    expect(micro(t.platformCut) + micro(t.agent_earnings)).toBe(priceMicro(price));
  });

  it('the platform receives platform fee + platform cut', async () => {
    for (const id of Object.keys(PRICES)) {
      const t = await tx(runs[id].body.data.transactionId);
      expect(t.platform_revenue).toBe(usdc(1000n + micro(PRICES[id][1])));
    }
  });

  it("the agent's balance holds exactly the sum of its earnings", async () => {
    const b = await balance(m, seller.id);
    const total = Object.values(PRICES).reduce((sum, [, , earnings]) => sum + micro(earnings), 0n);
    expect(b.totalEarned).toBe(usdc(total));
    expect(micro(b.available) + micro(b.pending)).toBe(total);
    expect(b.executionCount).toBe(Object.keys(PRICES).length);
  });
});

describe('Transaction', () => {
  it('GET /payments/tx/:txId returns the single view with every field', async () => {
    const run = runs.two;
    const t = await tx(run.body.data.transactionId);
    expect(t.id).toBe(run.body.data.transactionId);
    expect(t.id).toMatch(/^tx_/);
    expect(t).toMatchObject({ providing_agent: seller.id, capability_id: 'two', dispute_id: null });
    expect(t).toHaveProperty('requesting_agent');
    for (const k of ['amount', 'gross_amount', 'platformCut', 'platform_revenue', 'agent_earnings'])
      expect(t[k]).toMatch(SIX_DECIMALS);
    expect(typeof t.status).toBe('string');
    expect(Number.isInteger(t.execution_time) && t.execution_time >= 0).toBe(true);
    expect(typeof t.escrow_id).toBe('string');
    expect(t.created_at).toMatch(ISO_8601);
    expect(t.completed_at).toMatch(ISO_8601);
  });

  it('GET /payments/tx/:txId of an unknown id is TRANSACTION_NOT_FOUND (404)', async () => {
    const r = await api(m, 'GET', '/api/v1/payments/tx/tx_doesnotexist');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'TRANSACTION_NOT_FOUND' } });
  });
});

describe('Payments', () => {
  const history = async (query = '') =>
    api(m, 'GET', `/api/v1/payments/history/${seller.id}${query}`, {
      headers: await agentHeaders(seller.wallet, seller.id),
    });

  it("GET /payments/history/:agentId (signed) lists the agent's transactions in the list view", async () => {
    const r = await history();
    expectStatus(r, 200, 'history:');
    expect(r.body.success).toBe(true);
    const list: any[] = r.body.data;
    expect(list.map((t) => t.id).sort()).toEqual(
      Object.values(runs)
        .map((x) => x.body.data.transactionId)
        .sort(),
    );
    for (const t of list) {
      expect(t.id).toMatch(/^tx_/);
      expect(t).toMatchObject({ providing_agent: seller.id });
      expect(t).toHaveProperty('requesting_agent');
      expect(Object.keys(PRICES)).toContain(t.capability_id);
      for (const k of ['amount', 'platformCut', 'agent_earnings']) expect(t[k]).toMatch(SIX_DECIMALS);
      expect(typeof t.status).toBe('string');
      expect(Number.isInteger(t.execution_time)).toBe(true);
      expect(t.created_at).toMatch(ISO_8601);
    }
  });

  it('GET /payments/history pages with limit and offset', async () => {
    const page1 = await history('?limit=2');
    const page3 = await history('?limit=2&offset=4');
    expectStatus(page1, 200);
    expect(page1.body.data).toHaveLength(2);
    expect(page3.body.data).toHaveLength(1);
    expect(page1.body.data.map((t: any) => t.id)).not.toContain(page3.body.data[0].id);
  });

  it('GET /payments/stats answers the counts as integers and the amounts as six-decimal strings', async () => {
    const r = await api(m, 'GET', '/api/v1/payments/stats');
    expectStatus(r, 200, 'stats:');
    const s = r.body.data;
    for (const k of ['totalAgents', 'activeAgents', 'totalTransactions']) expect(Number.isInteger(s[k])).toBe(true);
    for (const k of ['totalVolume', 'avgTransactionSize']) expect(s[k]).toMatch(SIX_DECIMALS);
    expect(s.totalAgents).toBeGreaterThanOrEqual(1);
    expect(s.activeAgents).toBeLessThanOrEqual(s.totalAgents);
    expect(s.totalTransactions).toBeGreaterThanOrEqual(Object.keys(PRICES).length);
    // An average: avgTransactionSize x totalTransactions is totalVolume, to a micro-unit per transaction.
    const diff = micro(s.avgTransactionSize) * BigInt(s.totalTransactions) - micro(s.totalVolume);
    expect(diff <= BigInt(s.totalTransactions) && diff >= -BigInt(s.totalTransactions)).toBe(true);
  });

  it('GET /payments/stats counts registrations, deactivations and executions', async () => {
    const stats = async () => (await api(m, 'GET', '/api/v1/payments/stats')).body.data;
    const before = await stats();
    const wallet = newWallet();
    const a = await registerAgent(m, wallet, { endpoints: { execution: agentServer.url } });
    const registered = await stats();
    expect(registered.totalAgents).toBe(before.totalAgents + 1);
    expect(registered.activeAgents).toBe(before.activeAgents + 1);
    await executeOk(m, newWallet(), { targetAgentId: a.id, capabilityId: 'echo', input: {} });
    expect((await stats()).totalTransactions).toBe(before.totalTransactions + 1);
    const d = await api(m, 'DELETE', `/api/v1/agents/${a.id}`, { headers: await agentHeaders(wallet, a.id) });
    expectStatus(d, 200, 'DELETE:');
    const after = await stats();
    expect(after.totalAgents).toBe(before.totalAgents + 1);
    expect(after.activeAgents).toBe(before.activeAgents);
  });
});
