import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { EscrowService, PAYMENT_CHECKS, WithdrawalsService } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge, CLIENT_WALLET } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';

const DEST = '0x2222222222222222222222222222222222222222';

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
  const withdraw = async (a: { id: string; wallet: Wallet }, amount: string, headers?: Record<string, string>) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount, destinationWallet: DEST },
      headers: headers ?? (await signed(a)),
    });
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );
  const events = (type: string, agentId: string) =>
    ds.query(`SELECT id, data FROM outbox_events WHERE type = $1 AND agent_id = $2 ORDER BY created_at`, [
      type,
      agentId,
    ]);

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

    it('shows instant-tier earnings as available and Standard-tier earnings in escrow until released', async () => {
      const a = await agent();
      await seedCharge(api.app, { agentId: a.id, agentFee: 1_000_000n, reputation: 90 }); // 0.95 now
      const { hold } = await seedCharge(api.app, { agentId: a.id, agentFee: 2_000_000n, reputation: 50 }); // 1.90 held 60 s
      let b = (await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data;
      expect(b).toMatchObject({
        available: '0.950000',
        pending: '1.900000',
        totalEarned: '2.850000',
        executionCount: 2,
        escrow: { pendingCount: 1, pendingTotal: '1.900000' },
      });

      const escrow = api.app.get(EscrowService);
      expect(await escrow.release(hold.id)).toBe(false); // not due yet
      clock.advance(61_000);
      expect(await escrow.release(hold.id)).toBe(true);
      expect(await escrow.release(hold.id)).toBe(false); // once
      b = (await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data;
      expect(b).toMatchObject({
        available: '2.850000',
        pending: '0.000000',
        escrow: { pendingCount: 0, pendingTotal: '0.000000' },
      });
      const released = await events('escrow.released', a.id);
      expect(released.map((e: { data: unknown }) => e.data)).toEqual([
        { transactionId: expect.stringMatching(/^tx_/), amount: '0.950000', newAvailableBalance: '0.950000' },
        { transactionId: hold.transactionId, amount: '1.900000', newAvailableBalance: '2.850000' },
      ]);
      expect(await invariants()).toEqual([]);
    });

    it('404s an unknown agent and 400s a bad id', async () => {
      expect(
        (await api.request('GET', '/api/v1/payments/balance/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b')).body.error.code,
      ).toBe('AGENT_NOT_FOUND');
      expect((await api.request('GET', '/api/v1/payments/balance/nope')).status).toBe(400);
    });
  });

  describe('POST /payments/withdraw and the withdrawal lifecycle', () => {
    let a: { id: string; wallet: Wallet };

    beforeAll(async () => {
      a = await agent();
      await seedCharge(api.app, { agentId: a.id, agentFee: 10_000_000n }); // 9.50 available
    });

    it('reserves the amount at once and answers the spec fields', async () => {
      const res = await withdraw(a, '2.5');
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        withdrawalId: expect.stringMatching(/^wd_/),
        agentId: a.id,
        amount: '2.500000',
        fee: '0.100000',
        netAmount: '2.400000',
        destinationWallet: DEST,
        status: 'pending',
        message: expect.stringMatching(/6 hours.*Test mode: no real USDC is sent/),
        livemode: false,
      });
      expect((await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data.available).toBe('7.000000');
      const one = await api.request('GET', `/api/v1/payments/withdrawal/${res.body.data.withdrawalId}`);
      expect(one.body.data).toEqual({
        id: res.body.data.withdrawalId,
        agent_id: a.id,
        amount: '2.500000',
        fee: '0.100000',
        net_amount: '2.400000',
        destination_wallet: DEST,
        status: 'pending',
        tx_hash: null,
        created_at: expect.any(String),
        completed_at: null,
        livemode: false,
      });
      expect(await invariants()).toEqual([]);
    });

    it('completes in the worker step: net amount sent, fee to the platform, event recorded', async () => {
      const res = await withdraw(a, '1.00');
      const id = res.body.data.withdrawalId;
      expect(await api.app.get(WithdrawalsService).process(id)).toBe('completed');
      expect(await api.app.get(WithdrawalsService).process(id)).toBe('skipped');
      const w = (await api.request('GET', `/api/v1/payments/withdrawal/${id}`)).body.data;
      expect(w).toMatchObject({
        status: 'completed',
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        completed_at: expect.any(String),
      });
      const [event] = (await events('withdrawal.completed', a.id)).map((e: { data: unknown }) => e.data);
      expect(event).toEqual({
        withdrawalId: id,
        agentId: a.id,
        amount: '1.000000',
        fee: '0.100000',
        netAmount: '0.900000',
        destinationWallet: DEST,
        txHash: w.tx_hash,
      });
      expect((await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data.totalWithdrawn).toBe('1.000000');
      expect(await invariants()).toEqual([]);
    });

    it('returns the amount to available when a withdrawal fails for good', async () => {
      const before = (await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data.available;
      const id = (await withdraw(a, '1.5')).body.data.withdrawalId;
      expect(await api.app.get(WithdrawalsService).fail(id, 'destination rejected')).toBe(true);
      expect(await api.app.get(WithdrawalsService).fail(id, 'again')).toBe(false);
      expect((await api.request('GET', `/api/v1/payments/withdrawal/${id}`)).body.data.status).toBe('failed');
      expect((await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data.available).toBe(before);
      const [event] = (await events('withdrawal.failed', a.id)).map((e: { data: unknown }) => e.data);
      expect(event).toMatchObject({ withdrawalId: id, amount: '1.500000', error: 'The transfer could not be sent' }); // the sender's own text stays in the row
      expect(await invariants()).toEqual([]);
    });

    it('lists withdrawals newest first with a summary, paginated', async () => {
      const res = await api.request('GET', `/api/v1/payments/withdrawals/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.withdrawals.map((w: { status: string }) => w.status)).toEqual([
        'failed',
        'completed',
        'pending',
      ]);
      expect(res.body.data.summary).toEqual({ totalCount: 3, totalWithdrawn: '1.000000', pendingAmount: '2.500000' });
      const page = await api.request('GET', `/api/v1/payments/withdrawals/${a.id}?limit=1&offset=1`);
      expect(page.body.data.withdrawals.map((w: { status: string }) => w.status)).toEqual(['completed']);
      expect((await api.request('GET', `/api/v1/payments/withdrawals/${a.id}?limit=101`)).status).toBe(400);
    });

    it.each([
      ['an amount below the minimum', '0.99', 400, 'WITHDRAWAL_BELOW_MINIMUM'],
      ['an amount with 7 decimals', '1.0000001', 400, 'VALIDATION_ERROR'],
      ['a negative amount', '-5', 400, 'VALIDATION_ERROR'],
      ['more than available', '1000', 409, 'INSUFFICIENT_BALANCE'],
    ])('refuses %s (%s) and moves nothing', async (_label, amount, status, code) => {
      const before = (await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data;
      const res = await withdraw(a, amount);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect((await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data).toEqual(before);
    });

    it('refuses a bad destination wallet', async () => {
      const res = await api.request('POST', '/api/v1/payments/withdraw', {
        body: { agentId: a.id, amount: '1', destinationWallet: '0x12' },
        headers: await signed(a),
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0].field).toBe('destinationWallet');
    });

    it('needs the agent wallet signature, once', async () => {
      expect((await withdraw(a, '1', {})).status).toBe(401);
      const other = await agent();
      expect((await withdraw(a, '1', await signed(other))).status).toBe(403);
      expect(
        (await withdraw(a, '1', await walletHeaders(other.wallet, a.id, 'POST /api/v1/payments/withdraw'))).status,
      ).toBe(403);
      const headers = await signed(a);
      expect((await withdraw(a, '1', headers)).status).toBe(201);
      const replay = await withdraw(a, '1', headers);
      expect(replay.status).toBe(401);
      expect(replay.body.error.message).toMatch(/already been used/);
    });

    it('refuses a suspended agent (403) without moving anything, until an admin reinstates it', async () => {
      const b = await agent();
      await seedCharge(api.app, { agentId: b.id, agentFee: 2_000_000n, reputation: 90 });
      const admin = { 'X-Admin-Key': 'test-admin-key-0123456789' };
      expect(
        (
          await api.request('POST', `/api/v1/admin/agents/${b.id}/suspend`, {
            body: { reason: 'review' },
            headers: admin,
          })
        ).status,
      ).toBe(200);
      const refused = await withdraw(b, '1');
      expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await api.request('GET', `/api/v1/payments/balance/${b.id}`)).body.data.available).toBe('1.900000');
      expect((await ds.query(`SELECT count(*)::int AS n FROM withdrawals WHERE agent_id = $1`, [b.id]))[0].n).toBe(0);
      expect((await api.request('POST', `/api/v1/admin/agents/${b.id}/reinstate`, { headers: admin })).status).toBe(
        200,
      );
      expect((await withdraw(b, '1')).status).toBe(201);
    });

    it('404s unknown withdrawals and 400s malformed ids', async () => {
      expect((await api.request('GET', '/api/v1/payments/withdrawal/wd_AAAAAAAAAAAAAAAA')).body.error.code).toBe(
        'WITHDRAWAL_NOT_FOUND',
      );
      expect((await api.request('GET', '/api/v1/payments/withdrawal/12345')).status).toBe(400);
    });
  });

  it('G2: 50 parallel whole-balance withdrawals accept exactly one', async () => {
    const a = await agent();
    await seedCharge(api.app, { agentId: a.id, agentFee: 10_526_316n }); // earnings 10.000000
    expect((await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data.available).toBe('10.000000');
    const headers = await Promise.all(Array.from({ length: 50 }, () => signed(a)));
    const results = await Promise.all(headers.map((h) => withdraw(a, '10', h)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'INSUFFICIENT_BALANCE')).toHaveLength(49);
    const b = (await api.request('GET', `/api/v1/payments/balance/${a.id}`)).body.data;
    expect(b.available).toBe('0.000000');
    const [{ withdrawing }] = await ds.query(
      `SELECT balance::text AS withdrawing FROM ledger_accounts WHERE code = $1`,
      [`agent:${a.id}:withdrawing`],
    );
    expect(withdrawing).toBe('10000000');
    expect(await invariants()).toEqual([]);
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
