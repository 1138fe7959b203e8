import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { TransactionsRepository } from './repositories/transactions.repository';
import { WithdrawalReserve } from './withdrawal-reserve';

const NOW = new Date('2026-01-10T00:00:00Z');
const WINDOW_S = 604_800;
const UNTIL = new Date('2026-01-15T00:00:00Z');

/** The rolling reserve's arithmetic over a fake record: what is reserved, until when, and when it frees. */
describe('WithdrawalReserve', () => {
  let record: { volume: bigint; payers: number };
  let inside: { total: bigint; until: Date | null };
  let upgraded: boolean;
  let calls: { fundedRecord: unknown[][]; freesAt: unknown[][] };

  const reserve = (over: Partial<AppConfig> = {}) => {
    const config = {
      withdrawalReserve: true,
      disputeFilingWindowS: WINDOW_S,
      reserveMinAgeS: 259_200,
      reserveMinVolumeMicro: 10_000_000,
      reserveMinFundedPayers: 3,
      fundedPayerMinSpendMicro: 1_000_000,
      ...over,
    } as AppConfig;
    const transactions = {
      establishedAtUpgrade: () => Promise.resolve(upgraded),
      fundedRecord: (...args: unknown[]) => (calls.fundedRecord.push(args), Promise.resolve(record)),
      releasedInsideWindow: () => Promise.resolve(inside),
      freesAt: (...args: unknown[]) => (calls.freesAt.push(args), Promise.resolve(UNTIL)),
    } as unknown as TransactionsRepository;
    return new WithdrawalReserve(config, new FixedClock(NOW), transactions, {} as DataSource);
  };
  const sql = {} as Queryable;

  beforeEach(() => {
    record = { volume: 0n, payers: 0 };
    inside = { total: 3_000_000n, until: UNTIL };
    upgraded = false;
    calls = { fundedRecord: [], freesAt: [] };
  });

  it('keeps the earnings still inside their filing window, at most what is available', async () => {
    const r = await reserve().of('agent', 5_000_000n, sql);
    expect([r.reserved, r.reservedUntil]).toEqual([3_000_000n, UNTIL]);
    const capped = await reserve().of('agent', 2_000_000n, sql);
    expect(capped.reserved).toBe(2_000_000n);
  });

  it('asks when enough frees for an amount, with the window start and what is reserved and available now', async () => {
    const r = await reserve().of('agent', 5_000_000n, sql);
    expect(await r.freeFor(4_000_000n)).toEqual(UNTIL);
    expect(calls.freesAt).toEqual([
      [
        sql,
        'agent',
        new Date(NOW.getTime() - WINDOW_S * 1000),
        WINDOW_S,
        { total: 3_000_000n, available: 5_000_000n, amount: 4_000_000n },
      ],
    ]);
  });

  it('reserves nothing when off, when nothing is available, or when nothing is inside the window', async () => {
    for (const r of [
      await reserve({ withdrawalReserve: false }).of('agent', 5_000_000n, sql),
      await reserve().of('agent', 0n, sql),
      await ((inside = { total: 0n, until: null }), reserve().of('agent', 5_000_000n, sql)),
    ]) {
      expect([r.reserved, r.reservedUntil, await r.freeFor(1n)]).toEqual([0n, null, null]);
    }
  });

  it('an established record (volume and distinct funded payers, both at their minimum) frees everything', async () => {
    record = { volume: 10_000_000n, payers: 3 };
    expect((await reserve().of('agent', 5_000_000n, sql)).reserved).toBe(0n);
    // The record counts charges older than RESERVE_MIN_AGE_S, payers who spent FUNDED_PAYER_MIN_SPEND_MICRO elsewhere.
    expect(calls.fundedRecord[0].slice(1, 4)).toEqual(['agent', new Date(NOW.getTime() - 259_200 * 1000), 1_000_000n]);
  });

  it('one short of either minimum is no record', async () => {
    record = { volume: 9_999_999n, payers: 3 };
    expect((await reserve().of('agent', 5_000_000n, sql)).reserved).toBe(3_000_000n);
    record = { volume: 50_000_000n, payers: 2 };
    expect((await reserve().of('agent', 5_000_000n, sql)).reserved).toBe(3_000_000n);
  });

  it('an agent established at the upgrade to 1.2 stays established', async () => {
    upgraded = true;
    expect((await reserve().of('agent', 5_000_000n, sql)).reserved).toBe(0n);
    expect(calls.fundedRecord).toEqual([]);
  });
});
