import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { formatMicros } from '@app/common';
import { AppConfig } from '@app/config';
import {
  Accounts,
  LEDGER_CHECKS,
  LedgerBoundsError,
  LedgerService,
  runInvariantChecks,
  shardIndex,
  transfer,
} from '@app/ledger';
import { startApi, ApiHarness } from '../support/api-harness';

/**
 * The platform's hot accounts in shards: a posting credits the shard of its refId, a transaction
 * keeps the shard it took first, a debit of revenue is taken from the shards that hold it, and
 * every balance read sums the shards.
 */
describe('ledger shards (integration)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let ledger: LedgerService;
  let n: number;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    ledger = api.app.get(LedgerService);
    n = api.app.get(AppConfig).ledgerShards;
  });
  afterAll(async () => {
    await api.close();
  });

  const shards = async (kind: string) =>
    new Map<string, bigint>(
      (await ds.query(`SELECT code, balance::text AS b FROM ledger_accounts WHERE kind = $1`, [kind])).map(
        (r: { code: string; b: string }) => [r.code, BigInt(r.b)],
      ),
    );
  /** A refId whose shard is `k`. */
  const refFor = (k: number) => {
    for (;;) {
      const ref = randomUUID();
      if (shardIndex(ref, n) === k) return ref;
    }
  };
  const fee = (ref: string, amount: bigint) =>
    ds.transaction((m) =>
      ledger.post(m, {
        code: 'test.fee',
        refId: ref,
        legs: transfer(Accounts.worldChain(), Accounts.platformRevenue(), amount),
      }),
    );
  const total = (code: string) => ledger.balance(ds.manager, code);

  it('a posting credits the shard its refId hashes to, in both hot accounts; balances sum the shards', async () => {
    expect(n).toBe(16);
    const revenueBefore = await shards('revenue');
    const worldBefore = await shards('world');
    const totalBefore = await total(Accounts.platformRevenue().code);
    for (let k = 0; k < n; k++) await fee(refFor(k), BigInt(1_000 + k));

    const revenueAfter = await shards('revenue');
    const worldAfter = await shards('world');
    for (let k = 0; k < n; k++) {
      const code = (base: string) => `${base}:${k}`;
      expect(revenueAfter.get(code('platform:revenue'))! - (revenueBefore.get(code('platform:revenue')) ?? 0n)).toBe(
        BigInt(1_000 + k),
      );
      expect(worldAfter.get(code('world:chain'))! - (worldBefore.get(code('world:chain')) ?? 0n)).toBe(
        -BigInt(1_000 + k),
      );
    }
    const added = BigInt(n * 1_000 + (n * (n - 1)) / 2);
    expect((await total(Accounts.platformRevenue().code)) - totalBefore).toBe(added);
    expect((await ledger.balances(ds.manager, [Accounts.worldChain().code])).get('world:chain')).toBe(
      [...worldAfter.values()].reduce((s, b) => s + b, 0n),
    );
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);
  });

  it('every posting of one transaction takes the shard its first posting took', async () => {
    const [first, second] = [refFor(3), refFor(11)];
    const before = await shards('revenue');
    await ds.transaction(async (m) => {
      for (const ref of [first, second])
        await ledger.post(m, {
          code: 'test.fee',
          refId: ref,
          legs: transfer(Accounts.worldChain(), Accounts.platformRevenue(), 500n),
        });
    });
    const after = await shards('revenue');
    expect(after.get('platform:revenue:3')! - before.get('platform:revenue:3')!).toBe(1_000n);
    expect(after.get('platform:revenue:11')).toBe(before.get('platform:revenue:11'));
  });

  it('a debit of revenue larger than any shard is taken from several; one larger than the total moves nothing', async () => {
    const before = await shards('revenue');
    const largest = [...before.values()].reduce((a, b) => (a > b ? a : b), 0n);
    const sum = [...before.values()].reduce((s, b) => s + b, 0n);
    const debit = (amount: bigint, refId = randomUUID()) =>
      ds.transaction((m) =>
        ledger.post(m, {
          code: 'test.refund',
          refId,
          legs: transfer(Accounts.platformRevenue(), Accounts.clientRefundPayable(`0x${'77'.repeat(20)}`), amount),
        }),
      );

    const firstRef = randomUUID();
    await debit(largest + 1n, firstRef);
    const after = await shards('revenue');
    expect(sum - [...after.values()].reduce((s, b) => s + b, 0n)).toBe(largest + 1n);
    expect([...after.values()].every((b) => b >= 0n)).toBe(true);
    expect([...after.entries()].filter(([code, b]) => b !== before.get(code)).length).toBeGreaterThan(1);

    const left = sum - largest - 1n;
    const err = await debit(left + 1n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerBoundsError);
    expect(err).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { account: 'revenue', balance: formatMicros(left), requested: formatMicros(left + 1n) },
    });
    expect(await shards('revenue')).toEqual(after);
    await debit(left);
    expect(await total(Accounts.platformRevenue().code)).toBe(0n);
    // Posted before: answered as a duplicate (nothing moves), though revenue could no longer pay it.
    expect(await debit(largest + 1n, firstRef)).toMatchObject({ duplicate: true });
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);
  });

  it('a start with LEDGER_SHARDS above the 16 the migration opened opens the others', async () => {
    const wider = await startApi({ LEDGER_SHARDS: '20' });
    try {
      const rows: { kind: string; n: number }[] = await wider.app
        .get(DataSource)
        .query(
          `SELECT kind, count(*)::int AS n FROM ledger_accounts WHERE kind IN ('world', 'revenue') GROUP BY kind ORDER BY kind`,
        );
      expect(rows).toEqual([
        { kind: 'revenue', n: 20 },
        { kind: 'world', n: 20 },
      ]);
    } finally {
      await wider.close();
    }
  });
});
