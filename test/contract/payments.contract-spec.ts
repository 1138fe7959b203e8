/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the Balance and Withdrawal resources (spec §2), the Payments endpoints for balances and withdrawals
 * (spec §4), withdrawal rules (spec §4, resolutions §6), escrow (resolutions §6). Transactions, stats and the
 * cost calculation: payments-transactions.contract-spec.ts.
 */
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll } from './support/http';
import { balance, capability, executeOk, ISO_8601, registerAgent, SIX_DECIMALS } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

let m: Marketplace;
let agentServer: AgentServer;
/** An agent that earned 2 x 1.900000 (two executions of a 2.00 capability), released to available. */
let earner: { wallet: Wallet; id: string };
const priced = (basePrice: string) => [capability({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })];
const run = (id: string) => ({ targetAgentId: id, capabilityId: 'echo', input: { text: 'pay me' } });

beforeAll(async () => {
  // Standard tier holds escrow ESCROW_HOLD_STANDARD_S: 3 s here, long enough to read it held.
  m = await startMarketplace({ env: { ESCROW_HOLD_STANDARD_S: '3' } });
  agentServer = await startAgentServer();
  const wallet = newWallet();
  const a = await registerAgent(m, wallet, { endpoints: { execution: agentServer.url }, capabilities: priced('2.00') });
  earner = { wallet, id: a.id };
  await executeOk(m, newWallet(), run(a.id));
  await executeOk(m, newWallet(), run(a.id));
  await poll(
    () => balance(m, a.id),
    (b) => b.available === '3.800000',
    'earnings released to available',
    30_000,
  );
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

const withdraw = async (
  agent: { wallet: Wallet; id: string },
  amount: string,
  destinationWallet = newWallet().address,
) =>
  api(m, 'POST', '/api/v1/payments/withdraw', {
    body: { agentId: agent.id, amount, destinationWallet },
    headers: await agentHeaders(agent.wallet, agent.id),
  });

describe('Balance', () => {
  it('has every field, amounts as six-decimal strings, for a new agent all zero', async () => {
    const a = await registerAgent(m, newWallet());
    const b = await balance(m, a.id);
    expect(b).toMatchObject({
      agentId: a.id,
      available: '0.000000',
      pending: '0.000000',
      totalEarned: '0.000000',
      totalWithdrawn: '0.000000',
      totalDisputed: '0.000000',
      executionCount: 0,
      escrow: { pendingCount: 0, pendingTotal: '0.000000' },
    });
  });

  it('holds earnings in escrow (pending) and then makes them available', async () => {
    const wallet = newWallet();
    const a = await registerAgent(m, wallet, {
      endpoints: { execution: agentServer.url },
      capabilities: priced('2.00'),
    });
    await executeOk(m, newWallet(), run(a.id));
    const held = await balance(m, a.id);
    expect(held).toMatchObject({
      available: '0.000000',
      pending: '1.900000',
      totalEarned: '1.900000',
      executionCount: 1,
      escrow: { pendingCount: 1, pendingTotal: '1.900000' },
    });
    const released = await poll(
      () => balance(m, a.id),
      (b) => b.pending === '0.000000',
      'escrow released',
      30_000,
    );
    expect(released).toMatchObject({
      available: '1.900000',
      totalEarned: '1.900000',
      executionCount: 1,
      escrow: { pendingCount: 0, pendingTotal: '0.000000' },
    });
    for (const k of ['available', 'pending', 'totalEarned', 'totalWithdrawn', 'totalDisputed'])
      expect(released[k]).toMatch(SIX_DECIMALS);
  });

  it('GET /payments/balance of an unknown agent is AGENT_NOT_FOUND (404)', async () => {
    const r = await api(m, 'GET', '/api/v1/payments/balance/00000000-0000-4000-8000-000000000000');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'AGENT_NOT_FOUND' } });
  });
});

describe('Payments', () => {
  it('POST /payments/withdraw below the minimum 1.00 is WITHDRAWAL_BELOW_MINIMUM (400)', async () => {
    const r = await withdraw(earner, '0.99');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: { code: 'WITHDRAWAL_BELOW_MINIMUM' } });
    expect((await balance(m, earner.id)).available).toBe('3.800000');
  });

  it('POST /payments/withdraw above the available balance is INSUFFICIENT_BALANCE (409)', async () => {
    const r = await withdraw(earner, '3.800001');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_BALANCE' } });
    expect((await balance(m, earner.id)).available).toBe('3.800000');
  });

  it('POST /payments/withdraw with an amount of more than six decimals is VALIDATION_ERROR (400)', async () => {
    const r = await withdraw(earner, '1.0000001');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('POST /payments/withdraw answers the camelCase create response, status pending, fee 0.10', async () => {
    const destination = newWallet().address;
    const r = await withdraw(earner, '1.50', destination);
    expectStatus(r, 201, 'withdraw:');
    const d = r.body.data;
    expect(d).toMatchObject({
      agentId: earner.id,
      amount: '1.500000',
      fee: '0.100000',
      netAmount: '1.400000',
      status: 'pending',
      message: expect.any(String),
    });
    expect(d.withdrawalId).toMatch(/^wd_/);
    expect(d.destinationWallet.toLowerCase()).toBe(destination.toLowerCase());
    // The amount is reserved from available when the withdrawal is created.
    expect((await balance(m, earner.id)).available).toBe('2.300000');
    const done = await poll(
      () => api(m, 'GET', `/api/v1/payments/withdrawal/${d.withdrawalId}`),
      (w) => w.body?.data?.status === 'completed',
      'withdrawal completed',
      30_000,
    );
    const w = done.body.data;
    expect(w).toMatchObject({
      id: d.withdrawalId,
      agent_id: earner.id,
      amount: '1.500000',
      fee: '0.100000',
      net_amount: '1.400000',
      status: 'completed',
    });
    expect(w.destination_wallet.toLowerCase()).toBe(destination.toLowerCase());
    expect(typeof w.tx_hash).toBe('string');
    expect(w.created_at).toMatch(ISO_8601);
    expect(w.completed_at).toMatch(ISO_8601);
    const b = await balance(m, earner.id);
    expect(b).toMatchObject({ available: '2.300000', totalWithdrawn: '1.500000' });
  });

  it('GET /payments/withdrawals/:agentId lists withdrawals with a summary, limit and offset', async () => {
    const second = await withdraw(earner, '1.00');
    expectStatus(second, 201, 'second withdrawal:');
    await poll(
      () => api(m, 'GET', `/api/v1/payments/withdrawal/${second.body.data.withdrawalId}`),
      (w) => w.body?.data?.status === 'completed',
      'second withdrawal completed',
      30_000,
    );
    const all = await api(m, 'GET', `/api/v1/payments/withdrawals/${earner.id}`);
    expectStatus(all, 200, 'withdrawals:');
    const { withdrawals, summary } = all.body.data;
    expect(withdrawals).toHaveLength(2);
    for (const w of withdrawals) {
      expect(w.id).toMatch(/^wd_/);
      expect(w).toMatchObject({ agent_id: earner.id, fee: '0.100000', status: 'completed' });
      for (const k of ['amount', 'net_amount', 'destination_wallet', 'tx_hash', 'created_at', 'completed_at'])
        expect(w).toHaveProperty(k);
    }
    expect(summary).toEqual({ totalCount: 2, totalWithdrawn: '2.500000', pendingAmount: '0.000000' });
    const first = await api(m, 'GET', `/api/v1/payments/withdrawals/${earner.id}?limit=1`);
    const next = await api(m, 'GET', `/api/v1/payments/withdrawals/${earner.id}?limit=1&offset=1`);
    expect(first.body.data.withdrawals).toHaveLength(1);
    expect(next.body.data.withdrawals).toHaveLength(1);
    expect(first.body.data.withdrawals[0].id).not.toBe(next.body.data.withdrawals[0].id);
    expect(first.body.data.summary.totalCount).toBe(2);
    expect((await balance(m, earner.id)).available).toBe('1.300000');
  });

  it('GET /payments/withdrawals of an agent with none is an empty list with a zero summary', async () => {
    const a = await registerAgent(m, newWallet());
    const r = await api(m, 'GET', `/api/v1/payments/withdrawals/${a.id}`);
    expectStatus(r, 200);
    expect(r.body.data).toEqual({
      withdrawals: [],
      summary: { totalCount: 0, totalWithdrawn: '0.000000', pendingAmount: '0.000000' },
    });
  });

  it('GET /payments/withdrawal/:id of an unknown id is WITHDRAWAL_NOT_FOUND (404)', async () => {
    const r = await api(m, 'GET', '/api/v1/payments/withdrawal/wd_doesnotexist');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'WITHDRAWAL_NOT_FOUND' } });
  });
});
