import { Wallet } from 'ethers';
import { FixedClock } from '@app/common';
import { ResolveOverdueDispute } from '@app/disputes';
import { GetReputation } from '@app/reputation';
import { MoneyAgent, MoneyContext } from '../support/money-context';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const CENT = 10_000n;
const ONE = 1_000_000n;
const HOUR_MS = 3_600_000;

/**
 * Issue 52, review H1, played by the attacker (moved from reputation-dispute-back.e2e; the defaults:
 * REPUTATION_MODEL=weighted, FUNDED_PAYER_MIN_SPEND_MICRO 1.00, reserve on). Before: a payer became
 * funded for 0.001: it paid 1.00 to a throwaway agent of its second wallet (counted as spend at the
 * charge), banked +3 a day on any number of targets while funded, then disputed the 1.00 back (the
 * throwaway never answers: client_wins after 48 h, the whole fee refunded), and the gains stayed. Now
 * spend counts only once matured (past the filing window, no dispute pending, what the agent kept):
 * the payer is not funded while it could still take the money back, and a funding charge disputed
 * back never matures.
 */
describe('reputation against spend disputed back (medium)', () => {
  const clock = new FixedClock(new Date());
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({}, { clock });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  const agent = (owner: Wallet, price: bigint) => ctx.newAgent({ wallet: owner, price });
  const score = async (a: MoneyAgent) => (await ctx.get(GetReputation).execute(a.id)).score;
  const elsewhere = async (payer: Wallet, owner: Wallet) =>
    (await ctx.domain.ds.query(`SELECT payer_spend_elsewhere($1, $2)::text AS v`, [payer.address, owner.address]))[0].v;
  const buy = async (targets: MoneyAgent[], payer: Wallet, times: number) => {
    for (const t of targets) for (let i = 0; i < times; i++) await ctx.newCharge(t.id, { payer, agentFee: CENT });
  };

  it('1.00 to a throwaway agent, then disputed back: no gains while it could be, none after it was', async () => {
    const targetsOwner = newWallet();
    const targets = [await agent(targetsOwner, CENT), await agent(targetsOwner, CENT)];
    // The attacker's second wallet registers a throwaway agent that will never answer a dispute.
    const throwaway = await agent(newWallet(), ONE);
    const payer = newWallet();
    const funding = await ctx.newCharge(throwaway.id, { payer, agentFee: ONE });
    // Before: funded at once, +3 on each target. Now: the 1.00 can still be disputed back, so it is no spend yet.
    await buy(targets, payer, 3);
    expect(await Promise.all(targets.map(score))).toEqual([50, 50]);
    expect(await elsewhere(payer, targetsOwner)).toBe('0');

    // The dispute: the throwaway never answers, the window lapses, client_wins refunds the whole 1.00.
    const filed = await ctx.newDispute(funding);
    clock.advance(49 * HOUR_MS);
    expect(await ctx.get(ResolveOverdueDispute).execute(filed.id)).toBe(true);
    clock.set(new Date());
    const [tx] = await ctx.domain.ds.query(`SELECT status FROM transactions WHERE id = $1`, [funding.transactionId]);
    expect(tx.status).toBe('refunded');

    // The filing window passes for all of it: the refunded charge adds nothing; the payer stays unfunded.
    await matureSpend(ctx.domain, [payer]);
    expect(await elsewhere(payer, targetsOwner)).toBe('0');
    await buy(targets, payer, 3);
    expect(await Promise.all(targets.map(score))).toEqual([50, 50]);
  });

  it('the same 1.00 kept undisputed a filing window: funded, +3 a day on each target (what it costs is real)', async () => {
    const targetsOwner = newWallet();
    const targets = [await agent(targetsOwner, CENT), await agent(targetsOwner, CENT)];
    const payer = newWallet();
    await ctx.newCharge((await agent(newWallet(), ONE)).id, { payer, agentFee: ONE });
    await matureSpend(ctx.domain, [payer]);
    expect(await elsewhere(payer, targetsOwner)).toBe('1000000');
    await buy(targets, payer, 4);
    expect(await Promise.all(targets.map(score))).toEqual([53, 53]);
  });
});
