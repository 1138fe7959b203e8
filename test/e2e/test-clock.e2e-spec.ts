import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { DEV_PLATFORM_WALLET } from '@app/config';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, fileDispute, paidExecute } from '../support/disputes';
import { TEST_SEEDS } from '../support/evm-env';
import { registerPricedAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

const DEST = '0x2222222222222222222222222222222222222222';
const PRICE = 2_001_000n; // 0.001 platform fee + 2.00 agent fee: 1.90 earned a call
const DAY = 86_400;

/**
 * The local test clock makes due what waits on time: escrow holds, the withdrawal reserve, dispute
 * windows, payouts. The reserve is on and new agents are Standard tier (24 h holds), as in production.
 */
describe('local test clock (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', WITHDRAWAL_RESERVE: 'on' });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const agent = () => registerPricedAgent(api, agentServer.url);
  const advance = (seconds: unknown, headers: Record<string, string> = ADMIN, target = api) =>
    target.request('POST', '/api/v1/admin/test-clock/advance', { body: { seconds }, headers });
  let tick = 0;
  const withdraw = async (a: { id: string; wallet: Wallet }, amount: string) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount, destinationWallet: DEST },
      headers: await walletHeaders(a.wallet, a.id, 'POST /api/v1/payments/withdraw', Date.now() + ++tick),
    });
  const balance = async (id: string) => (await api.request('GET', `/api/v1/payments/balance/${id}`)).body.data;
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  describe('POST /admin/test-clock/advance', () => {
    it('is refused without the admin key, with a wrong one, and for a bad number of seconds', async () => {
      expect((await advance(60, {})).body.error.code).toBe('UNAUTHORIZED');
      expect((await advance(60, { 'X-Admin-Key': 'not-the-admin-key-0000' })).body.error.code).toBe('FORBIDDEN');
      for (const bad of [0, -5, 1.5, '60', 400_000_000]) {
        const res = await advance(bad);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('is refused outside local settlement, with the reason in the envelope', async () => {
      const other = await startApi({
        SETTLEMENT_MODE: 'facilitator',
        PLATFORM_WALLET: DEV_PLATFORM_WALLET,
        ...TEST_SEEDS,
        FACILITATOR_URL: 'http://127.0.0.1:9',
      });
      try {
        const res = await advance(DAY, ADMIN, other);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({
          code: 'FORBIDDEN',
          details: { reason: 'test_clock_local_only', settlementMode: 'facilitator' },
        });
      } finally {
        await other.close();
      }
    });

    it('releases a 24 h escrow hold, then frees the reserve after the filing window, and the withdrawal completes', async () => {
      const a = await agent();
      await paidExecute(api, a.id, newWallet(), PRICE);
      expect(await balance(a.id)).toMatchObject({ available: '0.000000', pending: '1.900000' });
      const held = await withdraw(a, '1.50');
      expect(held.status).toBe(409);
      expect(held.body.error.code).toBe('INSUFFICIENT_BALANCE');

      const day = await advance(DAY);
      expect(day.status).toBe(200);
      expect(day.body.data).toMatchObject({
        seconds: DAY,
        livemode: false,
        done: { escrowReleased: expect.any(Number) },
      });
      expect(day.body.data.done.escrowReleased).toBeGreaterThanOrEqual(1);
      expect(await balance(a.id)).toMatchObject({ available: '1.900000', pending: '0.000000', reserved: '1.900000' });
      const reserved = await withdraw(a, '1.50');
      expect(reserved.status).toBe(409);
      expect(reserved.body.error.details).toMatchObject({ reserved: '1.900000', withdrawable: '0.000000' });

      await advance(api.config.disputeFilingWindowS);
      expect(await balance(a.id)).toMatchObject({ available: '1.900000', reserved: '0.000000', reservedUntil: null });
      const ok = await withdraw(a, '1.50');
      expect(ok.status).toBe(201);
      expect(ok.body.data).toMatchObject({
        status: 'pending',
        livemode: false,
        message: expect.stringMatching(/Test mode/),
      });

      // No worker runs here: the clock's move does the pending payout.
      const paid = await advance(1);
      expect(paid.body.data.done.withdrawalsProcessed).toBe(1);
      const w = await api.request('GET', `/api/v1/payments/withdrawal/${ok.body.data.withdrawalId}`);
      expect(w.body.data).toMatchObject({
        status: 'completed',
        livemode: false,
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      const list = await api.request('GET', `/api/v1/payments/withdrawals/${a.id}`);
      expect(list.body.data.withdrawals.map((x: { livemode: boolean }) => x.livemode)).toEqual([false]);
      expect(await invariants()).toEqual([]);
    });

    it("closes a dispute's response window (resolved for the client, refund sent) and its filing window", async () => {
      const a = await agent();
      const disputed = await paidExecute(api, a.id, newWallet(), PRICE);
      const later = await paidExecute(api, a.id, newWallet(), PRICE);
      const filed = await fileDispute(api, disputed);
      expect(filed.status).toBe(201);
      const disputeId = filed.body.data.disputeId;

      const res = await advance(api.config.disputeResponseWindowS);
      expect(res.body.data.shifted.disputes).toBeGreaterThanOrEqual(1);
      expect(res.body.data.done.disputesResolved).toBeGreaterThanOrEqual(1);
      expect(res.body.data.done.refundsProcessed).toBeGreaterThanOrEqual(1);
      const dispute = await api.request('GET', `/api/v1/disputes/${disputeId}`, {
        headers: { [disputed.payment.name]: disputed.payment.value },
      });
      expect(dispute.body.data).toMatchObject({
        status: 'resolved',
        resolution: { outcome: 'client_wins', resolvedBy: 'system:timeout' },
        refundedAmount: '2.000000',
      });

      await advance(api.config.disputeFilingWindowS);
      const closed = await fileDispute(api, later);
      expect(closed.status).toBe(409);
      expect(closed.body.error.code).toBe('DISPUTE_WINDOW_CLOSED');
      expect(await invariants()).toEqual([]);
    });
  });
});
