import { GetBalance, GetTransaction, ProcessRefund, ReleaseHold } from '@app/payments';
import { MoneyContext } from '../support/money-context';

const FEE = { platform: 1_000n, agent: 10_000n, cut: 500n, earnings: 9_500n };
const ZERO = { available: 0n, escrow: 0n, frozen: 0n, owed: 0n, withdrawing: 0n };

/**
 * The money of each dispute outcome to the micro-USDC on both sides (moved from disputes-money.e2e):
 * the agent's escrow, available and frozen accounts, the payer's refund (owed, then paid by the
 * payout), the platform's revenue, the transaction's and the execution's states, reputation.
 * Production defaults (rolling reserve on); the spec's reputation deltas for every paying wallet.
 */
describe('disputes: money of each outcome (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({ ESCROW_HOLD_STANDARD_S: '3600', REPUTATION_MODEL: 'spec' });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  const score = async (id: string) =>
    (await ctx.domain.ds.query(`SELECT reputation_score AS s FROM agents WHERE id = $1`, [id]))[0].s as number;
  const txStatus = async (id: string) => (await ctx.get(GetTransaction).execute(id)).status;
  const executionStatus = async (id: string) =>
    (await ctx.domain.ds.query(`SELECT status FROM executions WHERE id = $1`, [id]))[0].status as string;
  const refundOf = async (disputeId: string) =>
    (
      await ctx.domain.ds.query(`SELECT id, amount::text, status, wallet FROM refunds WHERE id = $1`, [
        `rfd_${disputeId.slice(4)}`,
      ])
    )[0];

  it('held earnings are frozen from escrow (the hold is not released when due); agent_wins releases them to available, +2', async () => {
    const { id } = await ctx.newAgent({ reputation: 50 });
    const call = await ctx.newCharge(id);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, escrow: FEE.earnings });
    const dispute = await ctx.newDispute(call);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, frozen: FEE.earnings });
    expect(await ctx.get(GetBalance).execute(id)).toMatchObject({
      available: 0n,
      pending: 0n,
      totalDisputed: 9_500n,
      escrow: { pendingCount: 0, pendingTotal: 0n },
    });
    const [hold] = await ctx.domain.ds.query(`SELECT id, status FROM escrow_holds WHERE transaction_id = $1`, [
      call.transactionId,
    ]);
    expect(hold.status).toBe('frozen');
    await ctx.domain.ds.query(`UPDATE escrow_holds SET release_at = now() - interval '1 second' WHERE id = $1`, [
      hold.id,
    ]);
    expect(await ctx.get(ReleaseHold).execute(hold.id)).toBe(false);
    expect(await score(id)).toBe(51 - 5);
    const resolved = await ctx.resolve(dispute.id, 'agent_wins');
    expect(resolved.resolution).toMatchObject({
      outcome: 'agent_wins',
      refundAmount: '0.000000',
      releasedAmount: '0.009500',
    });
    expect(await ctx.balances(id)).toEqual({ ...ZERO, available: FEE.earnings });
    expect(await txStatus(call.transactionId)).toBe('completed');
    expect(await refundOf(dispute.id)).toBeUndefined();
    expect(await score(id)).toBe(51 - 5 + 2);
  });

  it('released earnings are frozen from available; client_wins refunds the agent fee (earnings + the cut) to the payer, paid by the payout', async () => {
    const { id } = await ctx.newAgent({ reputation: 90 });
    const call = await ctx.newCharge(id);
    const payer = call.payer;
    expect(await ctx.balances(id)).toEqual({ ...ZERO, available: FEE.earnings });
    const dispute = await ctx.newDispute(call);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, frozen: FEE.earnings });
    const revenueBefore = await ctx.revenue();
    const resolved = await ctx.resolve(dispute.id, 'client_wins', { note: 'Empty output' });
    expect(resolved.resolution).toEqual({
      outcome: 'client_wins',
      note: 'Empty output',
      refundAmount: '0.010000',
      releasedAmount: '0.000000',
      resolvedBy: 'admin',
    });
    expect(await ctx.balances(id)).toEqual(ZERO);
    expect(await ctx.revenue()).toBe(revenueBefore - FEE.cut);
    expect((await ctx.payerBalances(payer)).payable).toBe(FEE.agent);
    expect(await txStatus(call.transactionId)).toBe('refunded');
    expect(await executionStatus(call.requestId)).toBe('refunded');
    const refund = await refundOf(dispute.id);
    expect(refund).toMatchObject({ amount: '10000', status: 'pending', wallet: payer.address.toLowerCase() });
    expect(await ctx.get(ProcessRefund).execute(refund.id)).toBe('completed');
    expect((await ctx.payerBalances(payer)).payable).toBe(0n);
    expect((await refundOf(dispute.id)).status).toBe('completed');
    expect(await score(id)).toBe(91 - 5 - 5);
    expect(await ctx.get(GetTransaction).execute(call.transactionId)).toMatchObject({
      status: 'refunded',
      disputeId: dispute.id,
    });
  });

  it('split refunds half the agent fee (its earnings part from the freeze, its cut part from revenue) and releases the rest; reputation unchanged', async () => {
    const { id } = await ctx.newAgent({ reputation: 70 });
    const call = await ctx.newCharge(id);
    const dispute = await ctx.newDispute(call);
    const [revenueBefore, scoreBefore] = [await ctx.revenue(), await score(id)];
    const resolved = await ctx.resolve(dispute.id, 'split');
    // refund 0.005000 = 0.004750 of earnings + 0.000250 of cut; the agent keeps 0.009500 - 0.004750.
    expect(resolved.resolution).toMatchObject({
      outcome: 'split',
      refundAmount: '0.005000',
      releasedAmount: '0.004750',
    });
    expect(await ctx.balances(id)).toEqual({ ...ZERO, available: 4_750n });
    expect(await ctx.revenue()).toBe(revenueBefore - 250n);
    expect((await ctx.payerBalances(call.payer)).payable).toBe(5_000n);
    expect(await score(id)).toBe(scoreBefore);
    // Part of the fee went back: the transaction and the execution stay completed (as a variable price's unused part does).
    expect(await txStatus(call.transactionId)).toBe('completed');
    expect(await executionStatus(call.requestId)).toBe('completed');
    const [event] = await ctx.domain.ds.query(
      `SELECT data FROM outbox_events WHERE type = 'dispute.resolved' AND data->>'disputeId' = $1`,
      [dispute.id],
    );
    expect(event.data).toEqual({ disputeId: dispute.id, resolution: 'split', reputationDelta: 0 });
    // 0.005 is below the 0.01 dust floor: owed to the payer, held for its next refund, never sent alone.
    const refund = await refundOf(dispute.id);
    expect(refund).toMatchObject({ amount: '5000', status: 'held' });
    expect(await ctx.get(ProcessRefund).execute(refund.id)).toBe('skipped');
  });
});
