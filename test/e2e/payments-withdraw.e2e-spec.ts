import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import { FailWithdrawal, PAYMENT_CHECKS, ProcessWithdrawal } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
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
  /** The platform's revenue: the sum of its shards, micro-USDC. */
  const revenue = () => api.app.get(LedgerService).balance(ds.manager, Accounts.platformRevenue().code);

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
      const revenueBefore = await revenue();
      expect(await api.app.get(ProcessWithdrawal).execute(id)).toBe('completed');
      // The fee reaches the platform's revenue when the withdrawal completes, exactly once.
      expect((await revenue()) - revenueBefore).toBe(100_000n);
      expect(await api.app.get(ProcessWithdrawal).execute(id)).toBe('skipped');
      expect((await revenue()) - revenueBefore).toBe(100_000n);
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
      expect(await api.app.get(FailWithdrawal).execute(id, 'destination rejected')).toBe(true);
      expect(await api.app.get(FailWithdrawal).execute(id, 'again')).toBe(false);
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
});
