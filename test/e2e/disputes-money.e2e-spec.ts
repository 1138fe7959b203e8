import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { ROLLUP_CHECKS } from '@app/analytics';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessRefund, ProcessWithdrawal, ReleaseHold } from '@app/payments';
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
      // The spec's deltas for every paying wallet (the weighted model has its tests in reputation-sybil).
      REPUTATION_MODEL: 'spec',
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
  const revenue = async () =>
    BigInt((await ds.query(`SELECT sum(balance)::text AS b FROM ledger_accounts WHERE kind = 'revenue'`))[0].b);
  const owedTo = (payer: Wallet) => account(`client:${payer.address.toLowerCase()}:refund_payable`);
  const score = async (id: string) =>
    (await ds.query(`SELECT reputation_score AS s FROM agents WHERE id = $1`, [id]))[0].s as number;
  const txStatus = async (id: string) =>
    (await ds.query(`SELECT status FROM transactions WHERE id = $1`, [id]))[0].status as string;
  const refundOf = async (disputeId: string) =>
    (
      await ds.query(`SELECT id, amount::text, status, wallet FROM refunds WHERE id = $1`, [
        `rfd_${disputeId.slice(4)}`,
      ])
    )[0];

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

  it('held earnings are frozen from escrow (the hold is not released when due); agent_wins releases them to available, +2', async () => {
    const id = await newAgent(50);
    const call = await paidExecute(api, id, newWallet(), FEE.platform + FEE.agent);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: FEE.earnings, frozen: 0n, owed: 0n });
    const filed = await fileDispute(api, call);
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId;
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: FEE.earnings, owed: 0n });
    const balance = (await api.request('GET', `/api/v1/payments/balance/${id}`)).body.data;
    expect(balance).toMatchObject({
      available: '0.000000',
      pending: '0.000000',
      totalDisputed: '0.009500',
      escrow: { pendingCount: 0, pendingTotal: '0.000000' },
    });
    const [hold] = await ds.query(`SELECT id, status FROM escrow_holds h WHERE transaction_id = $1`, [
      call.transactionId,
    ]);
    expect(hold.status).toBe('frozen');
    await ds.query(`UPDATE escrow_holds SET release_at = now() - interval '1 second' WHERE id = $1`, [hold.id]);
    expect(await api.app.get(ReleaseHold).execute(hold.id)).toBe(false);
    expect(await score(id)).toBe(51 - 5);
    const res = await resolveDispute(api, disputeId, 'agent_wins');
    expect(res.body.data.resolution).toMatchObject({
      outcome: 'agent_wins',
      refundAmount: '0.000000',
      releasedAmount: '0.009500',
    });
    expect(await agentMoney(id)).toEqual({ available: FEE.earnings, escrow: 0n, frozen: 0n, owed: 0n });
    expect(await txStatus(call.transactionId)).toBe('completed');
    expect(await refundOf(disputeId)).toBeUndefined();
    expect(await score(id)).toBe(51 - 5 + 2);
  });

  it('released earnings are frozen from available; client_wins refunds the agent fee (earnings + the cut) to the payer, paid by the payout', async () => {
    const id = await newAgent(90);
    const payer = newWallet();
    const call = await paidExecute(api, id, payer, FEE.platform + FEE.agent);
    expect(await agentMoney(id)).toEqual({ available: FEE.earnings, escrow: 0n, frozen: 0n, owed: 0n });
    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: FEE.earnings, owed: 0n });
    const revenueBefore = await revenue();
    const res = await resolveDispute(api, disputeId, 'client_wins', 'Empty output');
    expect(res.body.data.resolution).toEqual({
      outcome: 'client_wins',
      note: 'Empty output',
      refundAmount: '0.010000',
      releasedAmount: '0.000000',
      resolvedBy: 'admin',
    });
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: 0n });
    expect(await revenue()).toBe(revenueBefore - FEE.cut);
    expect(await owedTo(payer)).toBe(FEE.agent);
    expect(await txStatus(call.transactionId)).toBe('refunded');
    expect((await ds.query(`SELECT status FROM executions WHERE id = $1`, [call.requestId]))[0].status).toBe(
      'refunded',
    );
    const refund = await refundOf(disputeId);
    expect(refund).toMatchObject({ amount: '10000', status: 'pending', wallet: payer.address.toLowerCase() });
    expect(await api.app.get(ProcessRefund).execute(refund.id)).toBe('completed');
    expect(await owedTo(payer)).toBe(0n);
    expect((await refundOf(disputeId)).status).toBe('completed');
    expect(await score(id)).toBe(91 - 5 - 5);
    const tx = (await api.request('GET', `/api/v1/payments/tx/${call.transactionId}`)).body.data;
    expect(tx).toMatchObject({ status: 'refunded', dispute_id: disputeId });
  });

  it('split refunds half the agent fee (its earnings part from the freeze, its cut part from revenue) and releases the rest; reputation unchanged', async () => {
    const id = await newAgent(70);
    const payer = newWallet();
    const call = await paidExecute(api, id, payer, FEE.platform + FEE.agent);
    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    const [revenueBefore, scoreBefore] = [await revenue(), await score(id)];
    const res = await resolveDispute(api, disputeId, 'split');
    // refund 0.005000 = 0.004750 of earnings + 0.000250 of cut; the agent keeps 0.009500 - 0.004750.
    expect(res.body.data.resolution).toMatchObject({
      outcome: 'split',
      refundAmount: '0.005000',
      releasedAmount: '0.004750',
    });
    expect(await agentMoney(id)).toEqual({ available: 4_750n, escrow: 0n, frozen: 0n, owed: 0n });
    expect(await revenue()).toBe(revenueBefore - 250n);
    expect(await owedTo(payer)).toBe(5_000n);
    expect(await score(id)).toBe(scoreBefore);
    // Part of the fee went back: the transaction and the execution stay completed (as a variable price's unused part does).
    expect(await txStatus(call.transactionId)).toBe('completed');
    expect((await ds.query(`SELECT status FROM executions WHERE id = $1`, [call.requestId]))[0].status).toBe(
      'completed',
    );
    const [event] = await ds.query(
      `SELECT data FROM outbox_events WHERE type = 'dispute.resolved' AND data->>'disputeId' = $1`,
      [disputeId],
    );
    expect(event.data).toEqual({ disputeId, resolution: 'split', reputationDelta: 0 });
    // 0.005 is below the 0.01 dust floor: owed to the payer, held for its next refund, never sent alone.
    const refund = await refundOf(disputeId);
    expect(refund).toMatchObject({ amount: '5000', status: 'held' });
    expect(await api.app.get(ProcessRefund).execute(refund.id)).toBe('skipped');
  });

  it("earnings already withdrawn: nothing is advanced; client_wins refunds the cut now, the rest is the agent's debt to the payer, refunded from its next earnings", async () => {
    const { id, call, payer } = await withdrawnAgent('1.900000');
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: 0n });

    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    // Nothing is left to freeze, and the platform advances nothing.
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: 0n });
    expect(await disputeView(disputeId)).toMatchObject({
      frozenAmount: '0.000000',
      advancedAmount: '0.000000',
      refundedAmount: '0.000000',
      outstandingAmount: '0.000000',
    });
    const revenueBefore = await revenue();
    const res = await resolveDispute(api, disputeId, 'client_wins');
    expect(res.body.data).toMatchObject({
      resolution: { refundAmount: '2.000000', releasedAmount: '0.000000' },
      refundedAmount: '0.100000',
      outstandingAmount: '1.900000',
    });
    expect(res.body.data.resolution.advance).toBeUndefined();
    expect(await owedTo(payer)).toBe(BIG.cut);
    expect(await revenue()).toBe(revenueBefore - BIG.cut);
    expect(await dueTo(payer)).toBe(BIG.earnings);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: -BIG.earnings });

    // The next earnings (released instantly at this score) repay the debt first, and go to the payer as a refund.
    await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent);
    expect(await agentMoney(id)).toEqual({ available: 0n, escrow: 0n, frozen: 0n, owed: 0n });
    const [released] = await ds.query(
      `SELECT data FROM outbox_events WHERE type = 'escrow.released' AND agent_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [id],
    );
    expect(released.data).toMatchObject({ amount: '1.900000', newAvailableBalance: '0.000000' });
    expect(await repayments(payer)).toEqual([{ amount: '1900000', reason: 'dispute_repayment' }]);
    expect(await dueTo(payer)).toBe(0n);
    expect(await owedTo(payer)).toBe(BIG.cut + BIG.earnings);
    expect(await disputeView(disputeId)).toMatchObject({ refundedAmount: '2.000000', outstandingAmount: '0.000000' });
    const balance = (await api.request('GET', `/api/v1/payments/balance/${id}`)).body.data;
    expect(balance).toMatchObject({ available: '0.000000', owed: '0.000000', reserved: '0.000000' });
    await paidExecute(api, id, newWallet(), FEE.platform + BIG.agent);
    expect(await agentMoney(id)).toEqual({ available: BIG.earnings, escrow: 0n, frozen: 0n, owed: 0n });
  });
});
