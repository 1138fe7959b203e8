import { Wallet } from 'ethers';
import { GetDispute } from '@app/disputes';
import { GetBalance } from '@app/payments';
import { MoneyAgent, MoneyContext } from '../support/money-context';
import { newWallet } from '../support/wallets';

const BIG = { agent: 2_000_000n, cut: 100_000n, earnings: 1_900_000n }; // a 2.00 capability, so earnings can be withdrawn
const ZERO = { available: 0n, escrow: 0n, frozen: 0n, owed: 0n, withdrawing: 0n };

/**
 * Disputes of earnings the agent had already withdrawn (moved from disputes-money.e2e and
 * disputes-money-debts.e2e): nothing is advanced, the agent owes the payer (refunded from its later
 * earnings, small repayments held until the dust floor), or an admin advances explicitly. The setting
 * under test is a withdrawal inside the filing window, which the rolling reserve forbids an agent
 * without an established record: WITHDRAWAL_RESERVE=off here (the reserve's own tests: payments-money).
 */
describe('disputes: earnings already withdrawn become the agent debt (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({ WITHDRAWAL_RESERVE: 'off', ESCROW_HOLD_STANDARD_S: '3600' });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  /** An agent at 90 (instant release) whose 2.00 capability was paid by `payer`, `withdraw` of its 1.90 earnings paid out. */
  async function withdrawnAgent(withdraw: bigint, payer: Wallet = newWallet()) {
    const agent = await ctx.newAgent({ reputation: 90, price: BIG.agent });
    const call = await ctx.newCharge(agent.id, { payer, agentFee: BIG.agent });
    await ctx.newWithdrawal(agent, withdraw, { process: true });
    return { id: agent.id, call, payer };
  }
  const repayments = async (payer: Wallet) =>
    (await ctx.domain.ds.query(
      `SELECT amount::text, reason FROM refunds WHERE wallet = $1 AND reason = 'dispute_repayment' ORDER BY created_at`,
      [payer.address.toLowerCase()],
    )) as { amount: string }[];
  const disputeView = (id: string) => ctx.get(GetDispute).execute(id);
  const charge = (agentId: string, agentFee: bigint) => ctx.newCharge(agentId, { agentFee });
  const partlyWithdrawn = async (amount: bigint, payer: Wallet = newWallet()) => {
    const agent: MoneyAgent = await ctx.newAgent({ reputation: 90, price: BIG.agent });
    const calls = [
      await ctx.newCharge(agent.id, { payer, agentFee: BIG.agent }),
      await ctx.newCharge(agent.id, { agentFee: BIG.agent }),
    ];
    await ctx.newWithdrawal(agent, amount);
    return { id: agent.id, calls };
  };

  it("earnings already withdrawn: nothing is advanced; client_wins refunds the cut now, the rest is the agent's debt to the payer, refunded from its next earnings", async () => {
    const { id, call, payer } = await withdrawnAgent(1_900_000n);
    expect(await ctx.balances(id)).toEqual(ZERO);

    const dispute = await ctx.newDispute(call);
    // Nothing is left to freeze, and the platform advances nothing.
    expect(await ctx.balances(id)).toEqual(ZERO);
    expect(await disputeView(dispute.id)).toMatchObject({
      frozenAmount: 0n,
      advancedAmount: 0n,
      refundedAmount: 0n,
      outstandingAmount: 0n,
    });
    const revenueBefore = await ctx.revenue();
    const resolved = await ctx.resolve(dispute.id, 'client_wins');
    expect(resolved).toMatchObject({
      resolution: { refundAmount: '2.000000', releasedAmount: '0.000000' },
      refundedAmount: 100_000n,
      outstandingAmount: 1_900_000n,
    });
    expect(resolved.resolution!.advance).toBeUndefined();
    expect(await ctx.payerBalances(payer)).toEqual({ payable: BIG.cut, due: BIG.earnings });
    expect(await ctx.revenue()).toBe(revenueBefore - BIG.cut);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, owed: -BIG.earnings });

    // The next earnings (released instantly at this score) repay the debt first, and go to the payer as a refund.
    await charge(id, BIG.agent);
    expect(await ctx.balances(id)).toEqual(ZERO);
    const [released] = await ctx.domain.ds.query(
      `SELECT data FROM outbox_events WHERE type = 'escrow.released' AND agent_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [id],
    );
    expect(released.data).toMatchObject({ amount: '1.900000', newAvailableBalance: '0.000000' });
    expect(await repayments(payer)).toEqual([{ amount: '1900000', reason: 'dispute_repayment' }]);
    expect(await ctx.payerBalances(payer)).toEqual({ payable: BIG.cut + BIG.earnings, due: 0n });
    expect(await disputeView(dispute.id)).toMatchObject({ refundedAmount: 2_000_000n, outstandingAmount: 0n });
    expect(await ctx.get(GetBalance).execute(id)).toMatchObject({ available: 0n, owed: 0n, reserved: 0n });
    await charge(id, BIG.agent);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, available: BIG.earnings });
  });

  it('small repayments wait for the dust floor (0.01) before they become a refund, never sent alone', async () => {
    const { id, call, payer } = await withdrawnAgent(1_900_000n);
    const dispute = await ctx.newDispute(call);
    await ctx.resolve(dispute.id, 'client_wins');
    // Now priced 0.005: each run earns 0.004750, which repays the debt but alone is below the floor.
    await ctx.domain.ds.query(`UPDATE agent_capabilities SET base_price = 5000 WHERE agent_id = $1`, [id]);
    await charge(id, 5_000n);
    await charge(id, 5_000n);
    expect(await repayments(payer)).toEqual([]);
    expect(await ctx.balances(id)).toMatchObject({ available: 0n, owed: -(BIG.earnings - 9_500n) });
    expect((await ctx.payerBalances(payer)).due).toBe(BIG.earnings);
    await charge(id, 5_000n);
    expect(await repayments(payer)).toEqual([{ amount: '14250', reason: 'dispute_repayment' }]);
    expect((await ctx.payerBalances(payer)).due).toBe(BIG.earnings - 14_250n);
    expect(await disputeView(dispute.id)).toMatchObject({ refundedAmount: 114_250n, outstandingAmount: 1_885_750n });
  });

  it('an admin may advance explicitly (advance: true): the payer is refunded in full now, the agent owes the platform, later earnings repay it', async () => {
    const { id, call, payer } = await withdrawnAgent(1_900_000n);
    const dispute = await ctx.newDispute(call);
    const resolved = await ctx.resolve(dispute.id, 'client_wins', { note: 'goodwill', advance: true });
    expect(resolved).toMatchObject({
      advancedAmount: 1_900_000n,
      refundedAmount: 2_000_000n,
      outstandingAmount: 0n,
      resolution: { refundAmount: '2.000000', advance: true, note: 'goodwill' },
    });
    expect(await ctx.payerBalances(payer)).toEqual({ payable: BIG.agent, due: 0n });
    expect(await ctx.balances(id)).toEqual({ ...ZERO, owed: -BIG.earnings });
    await charge(id, BIG.agent);
    expect(await ctx.balances(id)).toEqual(ZERO);
    expect(await repayments(payer)).toEqual([]);
  });

  it('partly withdrawn, then agent_wins: what available held is frozen and released again; nothing is owed', async () => {
    const { id, calls } = await partlyWithdrawn(3_000_000n);
    expect(await ctx.balances(id)).toMatchObject({ available: 800_000n });
    const dispute = await ctx.newDispute(calls[0]);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, frozen: 800_000n, withdrawing: 3_000_000n });
    await ctx.resolve(dispute.id, 'agent_wins');
    expect(await ctx.balances(id)).toEqual({ ...ZERO, available: 800_000n, withdrawing: 3_000_000n });
  });

  it("partly withdrawn, then split: half the fee is due; the frozen part pays its earnings share now, the rest is the agent's debt", async () => {
    const payer = newWallet();
    const { id, calls } = await partlyWithdrawn(3_500_000n, payer);
    const dispute = await ctx.newDispute(calls[0]);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, frozen: 300_000n, withdrawing: 3_500_000n });
    // Half of 2.00: 0.95 of earnings + 0.05 of cut; 0.30 was frozen, so 0.35 goes now and 0.65 is owed.
    const resolved = await ctx.resolve(dispute.id, 'split');
    expect(resolved).toMatchObject({
      resolution: { refundAmount: '1.000000', releasedAmount: '0.000000' },
      refundedAmount: 350_000n,
      outstandingAmount: 650_000n,
    });
    expect((await ctx.payerBalances(payer)).payable).toBe(350_000n);
    expect(await ctx.balances(id)).toEqual({ ...ZERO, owed: -650_000n, withdrawing: 3_500_000n });
  });
});
