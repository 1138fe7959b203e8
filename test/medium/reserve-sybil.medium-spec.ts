import { Wallet } from 'ethers';
import { CapabilityInput } from '@app/agents';
import { AppException } from '@app/common';
import { GetBalance } from '@app/payments';
import { MoneyAgent, MoneyContext } from '../support/money-context';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const TWO = 2_000_000n;
const THREE_DAYS_S = 3 * 86_400;
const FREE: CapabilityInput = {
  id: 'free',
  name: 'free',
  description: 'Costs nothing',
  inputSchema: { type: 'object' },
  pricing: { model: 'per-request', basePrice: 0n, currency: 'USDC' },
};

/**
 * The rolling reserve's established record is money from funded payers, not runs or wallets (issue
 * 52; resolutions §6; moved from reserve-sybil.e2e), with the production defaults (reserve on,
 * RESERVE_MIN_VOLUME_MICRO 10.00, RESERVE_MIN_AGE_S three days, FUNDED_PAYER_MIN_SPEND_MICRO 1.00,
 * RESERVE_MIN_FUNDED_PAYERS 3). Before: 20 price-0 runs from 5 fresh wallets and three days lifted it;
 * one payer's 10.00 to each of two owners' agents lifted both. Now the attacker's volume (free runs,
 * paid runs from wallets that paid agora nothing elsewhere, or only to the attacker's own agents, or
 * spend still disputable, or one payer's) leaves the reserve.
 */
describe('the reserve against sock puppets (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start();
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  /** An agent of `owner` with `translate` at 2.00 and `free` at 0, its earnings released at once (score 90). */
  const agent = (owner: Wallet) => ctx.newAgent({ wallet: owner, price: TWO, reputation: 90, capabilities: [FREE] });
  const paid = (a: MoneyAgent, payer: Wallet = newWallet()) => ctx.newCharge(a.id, { payer, agentFee: TWO });
  /** Three days pass for what the agent was paid so far (its charges move into the past). */
  const threeDaysLater = (a: MoneyAgent) =>
    ctx.domain.ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2), created_at = created_at - make_interval(secs => $2)
        WHERE providing_agent_id = $1`,
      [a.id, THREE_DAYS_S + 1],
    );
  /** 'ok', or the refusal's code. */
  const withdraw = (a: MoneyAgent, amount: bigint) =>
    ctx.newWithdrawal(a, amount, { destination: a.wallet.address }).then(
      () => 'ok',
      (e: unknown) => (e instanceof AppException ? e.code : String(e)),
    );
  const balance = (a: MoneyAgent) => ctx.get(GetBalance).execute(a.id);

  it('20 price-0 runs from 5 wallets and three days: the next client pays 2.001, the agent cannot withdraw it, the dispute freezes all 1.90', async () => {
    const a = await agent(newWallet());
    const puppets = Array.from({ length: 5 }, () => newWallet());
    for (const p of puppets)
      for (let i = 0; i < 4; i++) await ctx.newCharge(a.id, { payer: p, amount: PLATFORM_FEE, capabilityId: 'free' });
    await threeDaysLater(a);
    const call = await paid(a);
    expect(await balance(a)).toMatchObject({ available: 1_900_000n, reserved: 1_900_000n });
    expect(await withdraw(a, 1_900_000n)).toBe('INSUFFICIENT_BALANCE');
    const dispute = await ctx.newDispute(call);
    expect(dispute.frozenAmount).toBe(1_900_000n);
  });

  it('10.00 paid by 5 puppets, funded only through the owner or themselves, and three days: the reserve stays', async () => {
    const owner = newWallet();
    const a = await agent(owner);
    const ownersOther = await agent(owner);
    const puppets = Array.from({ length: 5 }, () => newWallet());
    for (const [i, p] of puppets.entries()) {
      // Money that goes round to the attacker: to the owner's other agent, or to the puppet's own.
      const via = i % 2 === 0 ? ownersOther : await agent(p);
      await paid(via, p);
    }
    // Even matured (past its filing window), that spend is not elsewhere.
    await matureSpend(ctx.domain, puppets);
    for (const p of puppets) await paid(a, p);
    await threeDaysLater(a);
    await paid(a);
    // All of it can still be disputed, and none of it is a record.
    expect(await balance(a)).toMatchObject({ available: 11_400_000n, reserved: 11_400_000n });
    expect(await withdraw(a, 1_000_000n)).toBe('INSUFFICIENT_BALANCE');
  });

  it('10.00 from payers who paid other owners 2.00 each, three days old: an established record, the reserve lifts', async () => {
    const a = await agent(newWallet());
    const shop = await agent(newWallet());
    const clients = Array.from({ length: 5 }, () => newWallet());
    for (const c of clients) await paid(shop, c);
    for (const c of clients) await paid(a, c);
    // Not three days old yet.
    expect(await balance(a)).toMatchObject({ available: 9_500_000n, reserved: 9_500_000n });
    await threeDaysLater(a);
    await paid(a);
    // Their 2.00 at the shop can still be disputed back: not spend yet.
    expect(await balance(a)).toMatchObject({ available: 11_400_000n, reserved: 11_400_000n });
    // A filing window later (their charges here leave theirs too), that spend has matured: the record stands,
    // and the next client's 1.90, inside its window, is not reserved.
    await matureSpend(ctx.domain, clients);
    await paid(a);
    expect(await balance(a)).toMatchObject({ available: 13_300_000n, reserved: 0n });
    expect(await withdraw(a, 13_300_000n)).toBe('ok');
  });

  it('one payer pays 10.00 to agents of two owners (circular, matured): funded for each, yet no record for either', async () => {
    const [owner1, owner2] = [newWallet(), newWallet()];
    const [a, b] = [await agent(owner1), await agent(owner2)];
    const payer = newWallet();
    for (let i = 0; i < 5; i++) await paid(b, payer);
    await matureSpend(ctx.domain, [payer]);
    for (let i = 0; i < 5; i++) await paid(a, payer);
    await threeDaysLater(a);
    const [elsewhere] = await ctx.domain.ds.query(`SELECT payer_spend_elsewhere($1, $2)::text AS v`, [
      payer.address,
      owner1.address,
    ]);
    expect(elsewhere.v).toBe('10000000');
    // 10.00 settled three days ago from a payer funded 10.00 elsewhere: before, an established record.
    await paid(a);
    expect(await balance(a)).toMatchObject({ available: 11_400_000n, reserved: 11_400_000n });
    expect(await withdraw(a, 1_000_000n)).toBe('INSUFFICIENT_BALANCE');
  });
});
