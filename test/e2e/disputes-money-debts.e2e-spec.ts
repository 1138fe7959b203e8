import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { ROLLUP_CHECKS } from '@app/analytics';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessWithdrawal } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

const FEE = { platform: 1_000n, agent: 10_000n, cut: 500n, earnings: 9_500n };
const BIG = { agent: 2_000_000n, cut: 100_000n, earnings: 1_900_000n }; // a 2.00 capability, so earnings can be withdrawn
const HOLD_STANDARD_S = 3_600;

/**
 * The money of every dispute outcome, to the micro-USDC on both sides: the payer's refund (owed,
 * then paid by the payout), the agent's escrow, available, frozen and owed accounts, the platform's
 * revenue; earnings already withdrawn becoming the agent's debt to the payer (refunded from its
 * later earnings), or an admin's explicit advance; 50 concurrent filings of one transaction. Invariants (I1-I10, disputes, rollups) at the end.
 */
describe('Disputes: money (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      ESCROW_HOLD_STANDARD_S: String(HOLD_STANDARD_S),
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    const report = await runInvariantChecks(ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...DISPUTE_CHECKS,
      ...ROLLUP_CHECKS,
    ]);
    await api.close();
    await agentServer.stop();
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  });

  async function newAgent(score: number, basePrice = '0.010000', wallet: Wallet = newWallet()): Promise<string> {
    const res = await registerAgent(api, wallet, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })],
    });
    expect(res.status).toBe(201);
    await ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [res.body.data.id, score]);
    return res.body.data.id;
  }

  const account = async (code: string) =>
    BigInt(
      (
        await ds.query(`SELECT coalesce((SELECT balance FROM ledger_accounts WHERE code = $1), 0)::text AS b`, [code])
      )[0].b,
    );
  const agentMoney = async (id: string) => ({
    available: await account(`agent:${id}:available`),
    escrow: await account(`agent:${id}:escrow`),
    frozen: await account(`agent:${id}:frozen`),
    owed: await account(`agent:${id}:owed`),
  });
  const owedTo = (payer: Wallet) => account(`client:${payer.address.toLowerCase()}:refund_payable`);

  /** An agent at 90 (instant release) whose 2.00 capability was paid by `payer`, with `withdraw` of its 1.90 earnings withdrawn and paid out. */
  async function withdrawnAgent(withdraw: string, payer = newWallet()) {
    const wallet = newWallet();
    const id = await newAgent(90, '2.000000', wallet);
    const call = await paidExecute(api, id, payer, FEE.platform + BIG.agent);
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: id, amount: withdraw, destinationWallet: newWallet().address },
      headers: await walletHeaders(wallet, id, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    expect(await api.app.get(ProcessWithdrawal).execute(wd.body.data.withdrawalId)).toBe('completed');
    return { id, call, payer };
  }
  const dueTo = (payer: Wallet) => account(`client:${payer.address.toLowerCase()}:refund_due`);
  const repayments = async (payer: Wallet) =>
    (await ds.query(
      `SELECT amount::text, reason FROM refunds WHERE wallet = $1 AND reason = 'dispute_repayment' ORDER BY created_at`,
      [payer.address.toLowerCase()],
    )) as {
      amount: string;
    }[];
  const disputeView = async (disputeId: string) =>
    (await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data;

  it('small repayments wait for the dust floor (0.01) before they become a refund, never sent alone', async () => {
    const { id, call, payer } = await withdrawnAgent('1.900000');
    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    await resolveDispute(api, disputeId, 'client_wins');
    // Now priced 0.005: each run earns 0.004750, which repays the debt but alone is below the floor.
    await ds.query(`UPDATE agent_capabilities SET base_price = 5000 WHERE agent_id = $1`, [id]);
    await paidExecute(api, id, newWallet(), FEE.platform + 5_000n);
    await paidExecute(api, id, newWallet(), FEE.platform + 5_000n);
    expect(await repayments(payer)).toEqual([]);
    expect(await agentMoney(id)).toMatchObject({ available: 0n, owed: -(BIG.earnings - 9_500n) });
    expect(await dueTo(payer)).toBe(BIG.earnings);
    await paidExecute(api, id, newWallet(), FEE.platform + 5_000n);
    expect(await repayments(payer)).toEqual([{ amount: '14250', reason: 'dispute_repayment' }]);
    expect(await dueTo(payer)).toBe(BIG.earnings - 14_250n);
    expect(await disputeView(disputeId)).toMatchObject({ refundedAmount: '0.114250', outstandingAmount: '1.885750' });
  });

  it('an admin may advance explicitly (advance: true): the payer is refunded in full now, the agent owes the platform, later earnings repay it', async () => {
    const { id, call, payer } = await withdrawnAgent('1.900000');
    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    const res = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins', note: 'goodwill', advance: true },
      headers: { 'X-Admin-Key': 'test-admin-key-0123456789' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      advancedAmount: '1.900000',
      refundedAmount: '2.000000',
      outstandingAmount: '0.000000',
      resolution: { refundAmount: '2.000000', advance: true, note: 'goodwill' },
    });
    expect(await owedTo(payer)).toBe(BIG.agent);
    expect(await dueTo(payer)).toBe(0n);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: -BIG.earnings });
    await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: 0n });
    expect(await repayments(payer)).toEqual([]);
    // A non-boolean advance is refused before anything moves.
    const bad = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins', advance: 'yes' },
      headers: { 'X-Admin-Key': 'test-admin-key-0123456789' },
    });
    expect(bad.status).toBe(400);
  });

  it('partly withdrawn, then agent_wins: what available held is frozen and released again; nothing is owed', async () => {
    const wallet = newWallet();
    const id = await newAgent(90, '2.000000', wallet);
    const calls = [
      await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent),
      await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent),
    ];
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: id, amount: '3.000000', destinationWallet: newWallet().address },
      headers: await walletHeaders(wallet, id, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    expect(await agentMoney(id)).toMatchObject({ available: 800_000n });
    const disputeId = (await fileDispute(api, calls[0])).body.data.disputeId;
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 800_000n, owed: 0n });
    await resolveDispute(api, disputeId, 'agent_wins');
    expect(await agentMoney(id)).toEqual({ available: 800_000n, escrow: 0n, frozen: 0n, owed: 0n });
  });

  it("partly withdrawn, then split: half the fee is due; the frozen part pays its earnings share now, the rest is the agent's debt", async () => {
    const wallet = newWallet();
    const payer = newWallet();
    const id = await newAgent(90, '2.000000', wallet);
    const calls = [
      await paidExecute(api, id, payer, FEE.platform + BIG.agent),
      await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent),
    ];
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: id, amount: '3.500000', destinationWallet: newWallet().address },
      headers: await walletHeaders(wallet, id, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    const disputeId = (await fileDispute(api, calls[0])).body.data.disputeId;
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 300_000n, owed: 0n });
    // Half of 2.00: 0.95 of earnings + 0.05 of cut; 0.30 was frozen, so 0.35 goes now and 0.65 is owed.
    const res = await resolveDispute(api, disputeId, 'split');
    expect(res.body.data).toMatchObject({
      resolution: { refundAmount: '1.000000', releasedAmount: '0.000000' },
      refundedAmount: '0.350000',
      outstandingAmount: '0.650000',
    });
    expect(await owedTo(payer)).toBe(350_000n);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: -650_000n });
  });

  it('50 concurrent filings of one transaction: exactly one dispute, 49 DISPUTE_EXISTS, the earnings frozen once', async () => {
    const id = await newAgent(50);
    const call = await paidExecute(api, id, newWallet(), FEE.platform + FEE.agent);
    const results = await Promise.all(Array.from({ length: 50 }, () => fileDispute(api, call)));
    const statuses = results.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error.code}`));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === '409 DISPUTE_EXISTS')).toHaveLength(49);
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM disputes WHERE transaction_id = $1`, [call.transactionId]))[0].n,
    ).toBe(1);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: FEE.earnings, owed: 0n });
    expect(
      (
        await ds.query(
          `SELECT count(*)::int AS n FROM reputation_events WHERE agent_id = $1 AND type = 'dispute.filed'`,
          [id],
        )
      )[0].n,
    ).toBe(1);
  });

  it('10 concurrent resolutions of one dispute (mixed outcomes): exactly one applies, 9 INVALID_STATE; one refund, one reputation change', async () => {
    const id = await newAgent(70);
    const payer = newWallet();
    const disputeId = (await fileDispute(api, await paidExecute(api, id, payer, FEE.platform + FEE.agent))).body.data
      .disputeId;
    const outcomes = [
      'client_wins',
      'agent_wins',
      'split',
      'client_wins',
      'agent_wins',
      'split',
      'client_wins',
      'agent_wins',
      'split',
      'client_wins',
    ];
    const results = await Promise.all(outcomes.map((o) => resolveDispute(api, disputeId, o)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'INVALID_STATE')).toHaveLength(9);
    const outcome = ok[0].body.data.resolution.outcome as string;
    const refunded = { client_wins: FEE.agent, split: 5_000n, agent_wins: 0n }[outcome]!;
    expect(await owedTo(payer)).toBe(refunded);
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM refunds WHERE id = $1`, [`rfd_${disputeId.slice(4)}`]))[0].n,
    ).toBe(refunded > 0n ? 1 : 0);
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM reputation_events WHERE ref_id = $1`, [disputeId]))[0].n,
    ).toBe(2); // filed + one outcome
    expect((await agentMoney(id)).frozen).toBe(0n);
  });
});
