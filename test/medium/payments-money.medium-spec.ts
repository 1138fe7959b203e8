import { AppException, formatMicros } from '@app/common';
import { AdvanceTestClock, FileDispute, ResolveDispute } from '@app/disputes';
import {
  GetTransaction,
  ProcessWithdrawal,
  ReleaseHold,
  RequestWithdrawal,
  splitAgentFee,
  WITHDRAWAL_FEE,
} from '@app/payments';
import { MoneyAgent, MoneyContext, walletAuth } from '../support/money-context';
import { signAuth } from '../support/wallets';

/**
 * Money outcomes of payments' use cases against real Postgres and Redis, no HTTP: holds by tier and
 * their release, a withdrawal's fee, net amount and rolling reserve, what a split dispute refunds.
 * Production defaults (the rolling reserve on); charges are paid executes (MoneyContext).
 */
describe('payments: money outcomes (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start();
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A paid execute of `agentFee` to `agent`, the hold set by the agent's score at the charge (`reputation`). */
  async function charge(agent: MoneyAgent, agentFee: bigint, reputation: number) {
    await ctx.domain.ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [agent.id, reputation]);
    const call = await ctx.newCharge(agent.id, { agentFee });
    const transaction = await ctx.get(GetTransaction).execute(call.transactionId);
    const [hold] = await ctx.domain.ds.query(
      `SELECT id, status, release_at AS "releaseAt" FROM escrow_holds WHERE transaction_id = $1`,
      [call.transactionId],
    );
    return { call, transaction, hold: hold as { id: string; status: string; releaseAt: Date } };
  }

  /** The agent's non-zero accounts, as decimal strings by kind. */
  async function accounts(agentId: string): Promise<Record<string, string>> {
    const b = await ctx.balances(agentId);
    return Object.fromEntries(
      Object.entries(b)
        .filter(([, v]) => v !== 0n)
        .map(([k, v]) => [k, v.toString()]),
    );
  }

  async function assertInvariants(): Promise<void> {
    expect(await ctx.violations()).toEqual([]);
  }

  it('holds earnings by tier: instant at 60+, else Standard, At Risk, Critical; a due hold is released once', async () => {
    const agent = await ctx.newAgent();
    const agentId = agent.id;
    const fee = 10_000n;
    const { earnings } = splitAgentFee(fee);
    const c = ctx.domain.config;
    const tiers: [number, number][] = [
      [90, 0],
      [60, 0],
      [50, c.escrowHoldStandardS],
      [30, c.escrowHoldAtRiskS],
      [10, c.escrowHoldCriticalS],
    ];
    const holds = [];
    for (const [reputation, seconds] of tiers) {
      const { transaction, hold } = await charge(agent, fee, reputation);
      expect(hold.releaseAt.getTime() - transaction.completedAt!.getTime()).toBe(seconds * 1000);
      expect(hold.status).toBe(seconds === 0 ? 'released' : 'held');
      holds.push(hold);
    }
    expect(await accounts(agentId)).toEqual({
      available: (2n * earnings).toString(),
      escrow: (3n * earnings).toString(),
    });

    const standard = holds[2];
    expect(await ctx.get(ReleaseHold).execute(standard.id)).toBe(false); // not due yet
    await ctx.domain.ds.query(`UPDATE escrow_holds SET release_at = now() - interval '1 second' WHERE id = $1`, [
      standard.id,
    ]);
    const [first, second] = await Promise.all([
      ctx.get(ReleaseHold).execute(standard.id),
      ctx.get(ReleaseHold).execute(standard.id),
    ]);
    expect([first, second].filter(Boolean)).toEqual([true]);
    expect(await accounts(agentId)).toEqual({
      available: (3n * earnings).toString(),
      escrow: (2n * earnings).toString(),
    });
    await assertInvariants();
  });

  it('a withdrawal takes its fee from the amount and sends the net; the rolling reserve keeps earnings still disputable', async () => {
    const fee = 3_000_000n;
    const agent = await ctx.newAgent({ price: fee });
    const agentId = agent.id;
    const destinationWallet = agent.wallet.address;
    const { earnings } = splitAgentFee(fee); // 2.85 USDC, released at once (instant tier)
    await charge(agent, fee, 90);
    const amount = 2_000_000n;

    // A new agent without an established record: its earnings stay reserved while the charge can be disputed.
    const refused = await ctx
      .get(RequestWithdrawal)
      .execute({ agentId, auth: walletAuth(agent), amount, destinationWallet })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).code).toBe('INSUFFICIENT_BALANCE');
    expect((refused as AppException).details).toMatchObject({
      available: '2.850000',
      reserved: '2.850000',
      withdrawable: '0.000000',
    });
    expect(await accounts(agentId)).toEqual({ available: earnings.toString() });

    // Once the filing window has closed (the local test clock moves past it), nothing is reserved.
    await ctx.get(AdvanceTestClock).execute(ctx.domain.config.disputeFilingWindowS + 1);
    const w = await ctx.get(RequestWithdrawal).execute({ agentId, auth: walletAuth(agent), amount, destinationWallet });
    expect({ status: w.status, amount: w.amount, fee: w.fee, net: w.netAmount }).toEqual({
      status: 'pending',
      amount,
      fee: WITHDRAWAL_FEE,
      net: amount - WITHDRAWAL_FEE,
    });
    expect(await accounts(agentId)).toEqual({
      available: (earnings - amount).toString(),
      withdrawing: amount.toString(),
    });
    const revenueBefore = await ctx.revenue();
    expect(await ctx.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await ctx.get(ProcessWithdrawal).execute(w.id)).toBe('skipped');
    expect(await accounts(agentId)).toEqual({ available: (earnings - amount).toString() });
    expect((await ctx.revenue()) - revenueBefore).toBe(WITHDRAWAL_FEE);
    await assertInvariants();
  });

  it('a split dispute refunds half of the agent fee to the payer and releases the rest of the frozen earnings', async () => {
    const fee = 100_000n; // half of it is above the dust floor: the refund is sent, not held
    const agent = await ctx.newAgent({ price: fee });
    const agentId = agent.id;
    const { call, transaction } = await charge(agent, fee, 50); // held in escrow (Standard)
    const payer = call.payer;
    const signature = await signAuth(payer, transaction.id, Date.now());
    const dispute = await ctx.get(FileDispute).execute({
      transactionId: transaction.id,
      reason: 'half done',
      evidence: null,
      proof: { payment: null, wallet: payer.address, signature },
    });
    expect(await accounts(agentId)).toEqual({ frozen: transaction.agentEarnings.toString() });

    const resolved = await ctx
      .get(ResolveDispute)
      .execute({ disputeId: dispute.id, outcome: 'split', note: null, resolvedBy: 'admin' });
    const half = splitAgentFee(fee / 2n);
    expect(resolved!.resolution).toMatchObject({
      outcome: 'split',
      refundAmount: formatMicros(fee / 2n),
      releasedAmount: formatMicros(transaction.agentEarnings - half.earnings),
    });
    const [refund] = await ctx.domain.ds.query(
      `SELECT id, wallet, amount::text, reason, status FROM refunds WHERE transaction_id = $1`,
      [transaction.id],
    );
    expect(refund).toEqual({
      id: `rfd_${dispute.id.slice('dsp_'.length)}`,
      wallet: payer.address.toLowerCase(),
      amount: (half.cut + half.earnings).toString(),
      reason: 'dispute',
      status: 'pending',
    });
    expect(await accounts(agentId)).toEqual({ available: (transaction.agentEarnings - half.earnings).toString() });
    const [tx] = await ctx.domain.ds.query(`SELECT status FROM transactions WHERE id = $1`, [transaction.id]);
    expect(tx.status).toBe('completed');
    await assertInvariants();
  });
});
