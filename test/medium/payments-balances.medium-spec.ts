import { AppException, FixedClock } from '@app/common';
import { CapabilityInput } from '@app/agents';
import { AdvanceTestClock } from '@app/disputes';
import { GetBalance, ReleaseHold } from '@app/payments';
import { MoneyContext } from '../support/money-context';

/** `translate` plus capabilities priced 1.00, 2.00 and 3.00 (agent fees), one charge each. */
const priced = (fee: bigint): CapabilityInput => ({
  id: `fee-${fee}`,
  name: `fee ${fee}`,
  description: 'Priced for the test',
  inputSchema: { type: 'object' },
  pricing: { model: 'per-request', basePrice: fee, currency: 'USDC' },
});
const FEES = [1_000_000n, 2_000_000n, 3_000_000n];

/**
 * An agent's balance as paid executes move it (moved from payments-api.e2e): instant-tier earnings
 * released inline with the balance in each event, Standard-tier earnings in escrow until released,
 * and G2, one whole-balance withdrawal of 50 at once. Production defaults (rolling reserve on);
 * Standard holds last 60 s on a clock the test moves.
 */
describe('payments: balances after paid executes (medium)', () => {
  const clock = new FixedClock(new Date());
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({ ESCROW_HOLD_STANDARD_S: '60' }, { clock });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  const released = async (agentId: string) =>
    (
      await ctx.domain.ds.query(
        `SELECT data FROM outbox_events WHERE type = 'escrow.released' AND agent_id = $1 ORDER BY created_at`,
        [agentId],
      )
    ).map((e: { data: unknown }) => e.data);
  const capabilities = FEES.map(priced);
  const charge = (agentId: string, fee: bigint) =>
    ctx.newCharge(agentId, { agentFee: fee, capabilityId: `fee-${fee}` });

  it('releases instant-tier earnings inline, the event carrying the balance after each release', async () => {
    const { id } = await ctx.newAgent({ reputation: 90, capabilities });
    // The first creates the agent's available row; the next ones find it locked and owing nothing (one round trip).
    for (const fee of FEES) await charge(id, fee);
    expect(await released(id)).toEqual([
      { transactionId: expect.stringMatching(/^tx_/), amount: '0.950000', newAvailableBalance: '0.950000' },
      { transactionId: expect.stringMatching(/^tx_/), amount: '1.900000', newAvailableBalance: '2.850000' },
      { transactionId: expect.stringMatching(/^tx_/), amount: '2.850000', newAvailableBalance: '5.700000' },
    ]);
    expect(await ctx.get(GetBalance).execute(id)).toMatchObject({
      available: 5_700_000n,
      pending: 0n,
      executionCount: 3,
    });
  });

  it('shows instant-tier earnings as available and Standard-tier earnings in escrow until released', async () => {
    const { id } = await ctx.newAgent({ reputation: 90, capabilities });
    await charge(id, 1_000_000n); // 0.95 now
    await ctx.domain.ds.query(`UPDATE agents SET reputation_score = 50 WHERE id = $1`, [id]);
    const held = await charge(id, 2_000_000n); // 1.90 held 60 s
    expect(await ctx.get(GetBalance).execute(id)).toMatchObject({
      available: 950_000n,
      pending: 1_900_000n,
      totalEarned: 2_850_000n,
      executionCount: 2,
      escrow: { pendingCount: 1, pendingTotal: 1_900_000n },
    });
    const [hold] = await ctx.domain.ds.query(`SELECT id FROM escrow_holds WHERE transaction_id = $1`, [
      held.transactionId,
    ]);
    const release = ctx.get(ReleaseHold);
    expect(await release.execute(hold.id)).toBe(false); // not due yet
    clock.advance(61_000);
    expect(await release.execute(hold.id)).toBe(true);
    expect(await release.execute(hold.id)).toBe(false); // once
    expect(await ctx.get(GetBalance).execute(id)).toMatchObject({
      available: 2_850_000n,
      pending: 0n,
      escrow: { pendingCount: 0, pendingTotal: 0n },
    });
    expect(await released(id)).toEqual([
      { transactionId: expect.stringMatching(/^tx_/), amount: '0.950000', newAvailableBalance: '0.950000' },
      { transactionId: held.transactionId, amount: '1.900000', newAvailableBalance: '2.850000' },
    ]);
  });

  it('G2: 50 parallel whole-balance withdrawals accept exactly one', async () => {
    const agent = await ctx.newAgent({ reputation: 90, price: 10_526_316n }); // earnings 10.000000
    await ctx.newCharge(agent.id, { agentFee: 10_526_316n });
    // The rolling reserve keeps a new agent's earnings while they can be disputed: the test clock closes the window.
    expect(await ctx.get(GetBalance).execute(agent.id)).toMatchObject({
      available: 10_000_000n,
      reserved: 10_000_000n,
    });
    await ctx.get(AdvanceTestClock).execute(ctx.domain.config.disputeFilingWindowS + 1);
    expect(await ctx.get(GetBalance).execute(agent.id)).toMatchObject({ available: 10_000_000n, reserved: 0n });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.newWithdrawal(agent, 10_000_000n).then(
          () => 'ok',
          (e: unknown) => (e instanceof AppException ? e.code : String(e)),
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'INSUFFICIENT_BALANCE')).toHaveLength(49);
    expect(await ctx.balances(agent.id)).toMatchObject({ available: 0n, withdrawing: 10_000_000n });
  });
});
