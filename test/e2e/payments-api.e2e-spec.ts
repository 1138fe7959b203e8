import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge, CLIENT_WALLET } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';

/**
 * The payments routes over HTTP: the balance's six-decimal strings, its refusals, the history, one
 * transaction and the platform's totals. Balances after paid executes and G2 (one whole-balance
 * withdrawal of 50): test/medium/payments-balances.medium-spec.ts.
 */
describe('Payments API (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    api = await startApi({ ESCROW_HOLD_STANDARD_S: '60' }, { clock });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
  });

  async function agent(): Promise<{ id: string; wallet: Wallet }> {
    const wallet = newWallet();
    const res = await registerAgent(api, wallet);
    expect(res.status).toBe(201);
    return { id: res.body.data.id, wallet };
  }
  // Signatures are single use for changes: each call gets its own timestamp.
  let tick = 0;
  const signed = (a: { id: string; wallet: Wallet }, action: string | null = 'POST /api/v1/payments/withdraw') =>
    walletHeaders(a.wallet, a.id, action, clock.nowMs() + ++tick);

  describe('GET /payments/balance/:agentId', () => {
    it('starts at zero with six-decimal strings', async () => {
      const a = await agent();
      const res = await api.request('GET', `/api/v1/payments/balance/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        agentId: a.id,
        available: '0.000000',
        reserved: '0.000000',
        reservedUntil: null,
        owed: '0.000000',
        pending: '0.000000',
        totalEarned: '0.000000',
        totalWithdrawn: '0.000000',
        totalDisputed: '0.000000',
        executionCount: 0,
        escrow: { pendingCount: 0, pendingTotal: '0.000000' },
      });
    });

    it('404s an unknown agent and 400s a bad id', async () => {
      expect(
        (await api.request('GET', '/api/v1/payments/balance/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b')).body.error.code,
      ).toBe('AGENT_NOT_FOUND');
      expect((await api.request('GET', '/api/v1/payments/balance/nope')).status).toBe(400);
    });
  });
  describe('history, transactions and stats', () => {
    it("lists an agent's transactions for its wallet only; a read may reuse its signature", async () => {
      const a = await agent();
      const first = await seedCharge(api.app, { agentId: a.id, agentFee: 100_000n, capabilityId: 'translate' });
      clock.advance(1_000);
      await seedCharge(api.app, { agentId: a.id, agentFee: 250_000n, capabilityId: 'summarize' });
      const headers = await signed(a, `GET /api/v1/payments/history/${a.id}`);
      const res = await api.request('GET', `/api/v1/payments/history/${a.id}`, { headers });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
      expect(res.body.data[1]).toEqual({
        id: first.transaction.id,
        requesting_agent: CLIENT_WALLET,
        providing_agent: a.id,
        capability_id: 'translate',
        amount: '0.100000',
        platformCut: '0.005000',
        agent_earnings: '0.095000',
        status: 'completed',
        execution_time: 42,
        created_at: expect.any(String),
        livemode: false,
      });
      expect((await api.request('GET', `/api/v1/payments/history/${a.id}`, { headers })).status).toBe(200);
      expect(
        (await api.request('GET', `/api/v1/payments/history/${a.id}?limit=1`, { headers })).body.data,
      ).toHaveLength(1);
      expect((await api.request('GET', `/api/v1/payments/history/${a.id}`)).status).toBe(401);
      const other = await agent();
      expect(
        (await api.request('GET', `/api/v1/payments/history/${a.id}`, { headers: await signed(other, null) })).status,
      ).toBe(403);
      // The unbound message is still accepted for a read (never for a change: test/e2e/abuse-signatures).
      expect(
        (await api.request('GET', `/api/v1/payments/history/${a.id}`, { headers: await signed(a, null) })).status,
      ).toBe(200);
    });

    it('shows one transaction with the single-view fields', async () => {
      const a = await agent();
      const { transaction, hold } = await seedCharge(api.app, { agentId: a.id, agentFee: 1_234_567n });
      const res = await api.request('GET', `/api/v1/payments/tx/${transaction.id}`);
      expect(res.body.data).toMatchObject({
        id: transaction.id,
        amount: '1.234567',
        platformCut: '0.061728',
        agent_earnings: '1.172839',
        gross_amount: '1.235567',
        platform_revenue: '0.062728',
        escrow_id: hold.id,
        dispute_id: null,
        completed_at: expect.any(String),
      });
      expect((await api.request('GET', '/api/v1/payments/tx/tx_AAAAAAAAAAAAAAAA')).body.error.code).toBe(
        'TRANSACTION_NOT_FOUND',
      );
      expect((await api.request('GET', '/api/v1/payments/tx/nope')).status).toBe(400);
    });

    it('reports platform totals', async () => {
      const [expected] = await ds.query(
        `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM transactions)::int AS txs, (SELECT sum(gross_amount) FROM transactions)::text AS volume`,
      );
      const res = await api.request('GET', '/api/v1/payments/stats');
      expect(res.body.data).toEqual({
        totalAgents: expected.agents,
        activeAgents: expected.agents,
        totalTransactions: expected.txs,
        totalVolume: expect.stringMatching(/^\d+\.\d{6}$/),
        avgTransactionSize: expect.stringMatching(/^\d+\.\d{6}$/),
      });
      expect(res.body.data.totalVolume.replace('.', '').replace(/^0+/, '')).toBe(expected.volume);
    });
  });
});
