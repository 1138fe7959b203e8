import { Wallet } from 'ethers';
import { AppException, FixedClock } from '@app/common';
import { ResolveOverdueDispute } from '@app/disputes';
import { ExecuteRejected } from '@app/execution';
import { GetReputation } from '@app/reputation';
import { MoneyAgent, MoneyContext } from '../support/money-context';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const HOUR_MS = 3_600_000;
const ONE = 1_000_000n;

/**
 * A dispute filed is an accusation, not a verdict (issue 52, review H2; moved from
 * reputation-disputes-weighted.e2e; REPUTATION_MODEL=weighted, the default), played by the attacker: 10
 * wallets, each funded (it paid 1.00 to another owner's agent, matured), buy one run of an honest agent
 * and dispute it. Before: 10 x -5 at filing took it from 50 to 0, suspended at once, and its honest
 * clients got 404. Now a filing moves nothing; the penalty lands when a dispute is lost, and funded payers
 * take at most REPUTATION_FUNDED_PENALTY_CAP (10) an interval from one agent in all. A reputation
 * suspension is lifted by an agent_wins that takes the score back above 0.
 */
describe('disputes weighed in the weighted model (medium)', () => {
  const clock = new FixedClock(new Date());
  let ctx: MoneyContext;
  let shop: MoneyAgent;

  beforeAll(async () => {
    ctx = await MoneyContext.start({}, { clock });
    shop = await ctx.newAgent({ price: ONE });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  const reputation = (a: MoneyAgent) => ctx.get(GetReputation).execute(a.id);
  /** Wallets that paid 1.00 to another owner's agent, past its filing window: funded, as the sweep counts it. */
  async function fundedWallets(n: number): Promise<Wallet[]> {
    const wallets = Array.from({ length: n }, () => newWallet());
    for (const w of wallets) await ctx.newCharge(shop.id, { payer: w, agentFee: ONE });
    await matureSpend(ctx.domain, wallets);
    return wallets;
  }
  const setScore = (a: MoneyAgent, score: number) =>
    ctx.domain.ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [a.id, score]);
  const resolve = (id: string, outcome: 'client_wins' | 'agent_wins') => ctx.resolve(id, outcome);

  it('10 funded wallets dispute one run each: the agent stays active; lost disputes take at most 10 an interval', async () => {
    const a = await ctx.newAgent();
    const calls = [];
    for (const w of await fundedWallets(10)) calls.push(await ctx.newCharge(a.id, { payer: w }));
    await setScore(a, 50);
    const filed: string[] = [];
    for (const call of calls) filed.push((await ctx.newDispute(call)).id);
    const after = await reputation(a);
    expect(after).toMatchObject({ score: 50, status: 'active' });
    // Every filing is still an event, with the change it made: none.
    const filings = after.recentEvents.filter((e) => e.type === 'dispute.filed');
    expect(filings).toHaveLength(10);
    expect(filings.every((e) => e.delta === 0)).toBe(true);
    // An honest client is still served.
    await ctx.newCharge(a.id);
    // The agent never answers: each dispute lapses client_wins on its payer's account, within the funded cap.
    clock.advance(49 * HOUR_MS);
    for (const d of filed) expect(await ctx.get(ResolveOverdueDispute).execute(d)).toBe(true);
    expect(await reputation(a)).toMatchObject({ score: 40, status: 'active' });
    clock.set(new Date());
    await ctx.newCharge(a.id);
  });

  it("an admin's client_wins lands the filing's -5 and the loss's -5; an agent_wins reinstates a reputation suspension", async () => {
    const a = await ctx.newAgent();
    const [w1, w2] = await fundedWallets(2);
    const lost = await ctx.newCharge(a.id, { payer: w1 });
    const won = await ctx.newCharge(a.id, { payer: w2 });
    await setScore(a, 8);
    const ids: string[] = [];
    for (const call of [lost, won]) ids.push((await ctx.newDispute(call)).id);
    expect(await reputation(a)).toMatchObject({ score: 8, status: 'active' });
    await resolve(ids[0], 'client_wins');
    expect(await reputation(a)).toMatchObject({ score: 0, status: 'suspended' });
    const [suspended] = await ctx.domain.ds.query(`SELECT suspended_by FROM agents WHERE id = $1`, [a.id]);
    expect(suspended.suspended_by).toBe('reputation');
    const refused = await ctx.newCharge(a.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExecuteRejected);
    expect(((refused as ExecuteRejected).error as AppException).code).toBe('AGENT_NOT_FOUND');
    // The other dispute was unfounded: +2 takes it back above 0, and the suspension its score caused is lifted.
    await resolve(ids[1], 'agent_wins');
    expect(await reputation(a)).toMatchObject({ score: 2, status: 'active' });
    const [row] = await ctx.domain.ds.query(`SELECT suspended_by, suspended_reason FROM agents WHERE id = $1`, [a.id]);
    expect(row).toEqual({ suspended_by: null, suspended_reason: null });
    await ctx.newCharge(a.id);
  });

  it("an admin's suspension stays when an agent_wins raises the score", async () => {
    const a = await ctx.newAgent();
    const [w] = await fundedWallets(1);
    const d = (await ctx.newDispute(await ctx.newCharge(a.id, { payer: w }))).id;
    await ctx.domain.ds.query(
      `UPDATE agents SET status = 'suspended', suspended_by = 'admin', suspended_reason = 'fraud' WHERE id = $1`,
      [a.id],
    );
    await resolve(d, 'agent_wins');
    expect(await reputation(a)).toMatchObject({ status: 'suspended' });
  });
});
