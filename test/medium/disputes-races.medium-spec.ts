import { AppException } from '@app/common';
import { DisputeOutcome } from '@app/disputes';
import { MoneyContext } from '../support/money-context';

const FEE = { agent: 10_000n, earnings: 9_500n };
const ZERO = { available: 0n, escrow: 0n, frozen: 0n, owed: 0n, withdrawing: 0n };

/**
 * One transaction disputed, one dispute resolved, from many sides at once (moved from
 * disputes-money-debts.e2e): exactly one wins, the others are refused by code, money moves once.
 * Production defaults (rolling reserve on).
 */
describe('disputes: concurrent filings and resolutions (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({ ESCROW_HOLD_STANDARD_S: '3600' });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  const count = async (sql: string, param: string) => (await ctx.domain.ds.query(sql, [param]))[0].n as number;
  /** The code of a refusal, or 'ok'. */
  const outcomeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof AppException ? e.code : String(e)),
    );

  it('50 concurrent filings of one transaction: exactly one dispute, 49 DISPUTE_EXISTS, the earnings frozen once', async () => {
    const { id } = await ctx.newAgent({ reputation: 50 });
    const call = await ctx.newCharge(id);
    const results = await Promise.all(Array.from({ length: 50 }, () => outcomeOf(ctx.newDispute(call))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'DISPUTE_EXISTS')).toHaveLength(49);
    expect(await count(`SELECT count(*)::int AS n FROM disputes WHERE transaction_id = $1`, call.transactionId)).toBe(
      1,
    );
    expect(await ctx.balances(id)).toEqual({ ...ZERO, frozen: FEE.earnings });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM reputation_events WHERE agent_id = $1 AND type = 'dispute.filed'`,
        id,
      ),
    ).toBe(1);
  });

  it('10 concurrent resolutions of one dispute (mixed outcomes): exactly one applies, 9 INVALID_STATE; one refund, one reputation change', async () => {
    const { id } = await ctx.newAgent({ reputation: 70 });
    const call = await ctx.newCharge(id);
    const dispute = await ctx.newDispute(call);
    const outcomes: DisputeOutcome[] = ['client_wins', 'agent_wins', 'split'];
    const tries = Array.from({ length: 10 }, (_, i) => outcomes[i % 3]);
    const applied: DisputeOutcome[] = [];
    const results = await Promise.all(
      tries.map((o) => outcomeOf(ctx.resolve(dispute.id, o).then((v) => applied.push(v.resolution!.outcome)))),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'INVALID_STATE')).toHaveLength(9);
    const refunded = { client_wins: FEE.agent, split: 5_000n, agent_wins: 0n }[applied[0]];
    expect((await ctx.payerBalances(call.payer)).payable).toBe(refunded);
    expect(await count(`SELECT count(*)::int AS n FROM refunds WHERE id = $1`, `rfd_${dispute.id.slice(4)}`)).toBe(
      refunded > 0n ? 1 : 0,
    );
    // filed + one outcome
    expect(await count(`SELECT count(*)::int AS n FROM reputation_events WHERE ref_id = $1`, dispute.id)).toBe(2);
    expect((await ctx.balances(id)).frozen).toBe(0n);
  });
});
