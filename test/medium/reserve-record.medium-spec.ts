import { Wallet } from 'ethers';
import { AppException } from '@app/common';
import { GetBalance } from '@app/payments';
import { MoneyAgent, MoneyContext } from '../support/money-context';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const HOUR_MS = 3_600_000;

/**
 * The rolling reserve itself (moved from market-integrity.e2e): new agents cannot withdraw earnings
 * inside their filing window; the balance shows it; an established record (enough settled volume from
 * funded payers, old enough) lifts it; executions the agent's own wallet paid do not count towards that
 * record. The reserve is on (the default); the record's minimums are lowered (2.00 from 2 funded payers,
 * an hour old), the setting under test being what makes a record.
 */
describe('the rolling reserve and the established record (medium)', () => {
  let ctx: MoneyContext;

  beforeAll(async () => {
    ctx = await MoneyContext.start({
      RESERVE_MIN_VOLUME_MICRO: '2000000',
      RESERVE_MIN_AGE_S: '3600',
      RESERVE_MIN_FUNDED_PAYERS: '2',
    });
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  /** Moves an agent's transactions `ms` into the past (as if they were charged then). */
  const age = (a: MoneyAgent, ms: number) =>
    ctx.domain.ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2), created_at = created_at - make_interval(secs => $2) WHERE providing_agent_id = $1`,
      [a.id, ms / 1000],
    );
  const completedAt = async (a: MoneyAgent) =>
    (
      await ctx.domain.ds.query(`SELECT max(completed_at) AS t FROM transactions WHERE providing_agent_id = $1`, [a.id])
    )[0].t as Date;
  /** An agent of `owner` at 90 (earnings released at once) with `translate` at `price`. */
  const instantAgent = (owner: Wallet, price: bigint) => ctx.newAgent({ wallet: owner, price, reputation: 90 });
  const paid = (a: MoneyAgent, payer: Wallet, agentFee: bigint) => ctx.newCharge(a.id, { payer, agentFee });
  /** The withdrawal, or the refusal. */
  const withdraw = (a: MoneyAgent, amount: bigint) =>
    ctx.newWithdrawal(a, amount, { destination: a.wallet.address }).catch((e: unknown) => e as AppException);
  const balance = (a: MoneyAgent) => ctx.get(GetBalance).execute(a.id);

  it('reserves earnings still inside their filing window until the agent has an established record from other payers', async () => {
    const owner = newWallet();
    const a = await instantAgent(owner, 1_000_000n);
    // Three runs paid by the owner's own wallet: earnings, but no record.
    for (let i = 0; i < 3; i++) await paid(a, owner, 1_000_000n);
    const b = await balance(a);
    expect(b).toMatchObject({ available: 2_850_000n, reserved: 2_850_000n });
    const closes = new Date((await completedAt(a)).getTime() + 7 * 24 * HOUR_MS);
    expect(b.reservedUntil).toEqual(closes);
    const refused = await withdraw(a, 1_000_000n);
    expect(refused).toBeInstanceOf(AppException);
    expect([(refused as AppException).code, (refused as AppException).details!.reserved]).toEqual([
      'INSUFFICIENT_BALANCE',
      '2.850000',
    ]);
    expect((refused as AppException).details!.reservedUntil).toBe(closes.toISOString());
    expect((refused as AppException).message).toMatch(/2\.850000 of the available balance is reserved/);
    // Three runs from two other payers, each of which paid 1.00 to another owner's agent a filing window
    // ago (funded): each counts up to that, 2.00 from two funded payers, a record, but not an hour old yet.
    const [p1, p2] = [newWallet(), newWallet()];
    const elsewhere = await instantAgent(newWallet(), 1_000_000n);
    for (const p of [p1, p2]) await paid(elsewhere, p, 1_000_000n);
    await matureSpend(ctx.domain, [p1, p2]);
    for (const p of [p1, p2, p1]) await paid(a, p, 1_000_000n);
    expect(await withdraw(a, 1_000_000n)).toBeInstanceOf(AppException);
    await age(a, HOUR_MS + 1_000);
    expect(await balance(a)).toMatchObject({ available: 5_700_000n, reserved: 0n, reservedUntil: null });
    expect(await withdraw(a, 5_700_000n)).toMatchObject({ status: 'pending', amount: 5_700_000n });
  });

  it('a withdrawal may take what is past the reserve; nothing is reserved once the filing window has passed', async () => {
    const owner = newWallet();
    const a = await instantAgent(owner, 2_000_000n);
    await paid(a, newWallet(), 2_000_000n);
    await age(a, 7 * 24 * HOUR_MS + 1_000);
    await paid(a, newWallet(), 2_000_000n);
    // The first run's 1.90 left its window; the second's 1.90 is reserved.
    expect(await balance(a)).toMatchObject({ available: 3_800_000n, reserved: 1_900_000n });
    expect(await withdraw(a, 1_900_001n)).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await withdraw(a, 1_900_000n)).toMatchObject({ status: 'pending', amount: 1_900_000n });
  });
});
