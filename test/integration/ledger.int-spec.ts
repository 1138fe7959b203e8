import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  Accounts,
  LEDGER_CHECKS,
  LedgerBoundsError,
  LedgerService,
  runInvariantChecks,
  transfer,
  UnbalancedPostingError,
} from '@app/ledger';
import { startApi, ApiHarness } from '../support/api-harness';
import { seedCharge } from '../support/money';
import { builtApp, startProcess } from '../support/processes';

describe('ledger (integration)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let ledger: LedgerService;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    ledger = api.app.get(LedgerService);
  });
  afterAll(async () => {
    await api.close();
  });

  const fund = (agentId: string, amount: bigint, ref = randomUUID()) =>
    ds.transaction((m) =>
      ledger.post(m, {
        code: 'test.fund',
        refId: ref,
        legs: transfer(Accounts.worldChain(), Accounts.agentAvailable(agentId), amount),
      }),
    );
  const balance = (code: string) => ledger.balance(ds.manager, code);

  it('posts a balanced transaction, creating accounts on first use, with entries that chain', async () => {
    const agent = randomUUID();
    const r = await fund(agent, 1_500_000n);
    expect(r.duplicate).toBe(false);
    expect(await balance(Accounts.agentAvailable(agent).code)).toBe(1_500_000n);
    const entries = await ds.query(
      `SELECT e.amount::text, e.balance_after::text, e.account_version::text FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.code = $1`,
      [Accounts.agentAvailable(agent).code],
    );
    expect(entries).toEqual([{ amount: '1500000', balance_after: '1500000', account_version: '1' }]);
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);
  });

  it('posts a business event once: the same (code, ref_id) moves nothing the second time', async () => {
    const agent = randomUUID();
    const ref = randomUUID();
    const first = await fund(agent, 2_000_000n, ref);
    const second = await fund(agent, 2_000_000n, ref);
    expect(second).toMatchObject({ duplicate: true, transactionId: first.transactionId });
    expect(await balance(Accounts.agentAvailable(agent).code)).toBe(2_000_000n);
  });

  it('refuses unbalanced postings before touching the database', async () => {
    await expect(
      ds.transaction((m) =>
        ledger.post(m, {
          code: 'test.bad',
          refId: randomUUID(),
          legs: [
            { account: Accounts.worldChain(), amount: -5n },
            { account: Accounts.platformRevenue(), amount: 4n },
          ],
        }),
      ),
    ).rejects.toThrow(UnbalancedPostingError);
  });

  it('refuses an overdraw and rolls the whole transaction back', async () => {
    const agent = randomUUID();
    await fund(agent, 1_000_000n);
    const before = await ds.query(`SELECT count(*)::int AS n FROM ledger_transactions`);
    const err = await ds
      .transaction(async (m) => {
        await ledger.post(m, {
          code: 'test.ok',
          refId: randomUUID(),
          legs: transfer(Accounts.worldChain(), Accounts.platformRevenue(), 7n),
        });
        await ledger.post(m, {
          code: 'test.over',
          refId: randomUUID(),
          legs: transfer(Accounts.agentAvailable(agent), Accounts.agentWithdrawing(agent), 1_000_001n),
        });
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerBoundsError);
    expect((err as LedgerBoundsError).code).toBe('INSUFFICIENT_BALANCE');
    expect(await ds.query(`SELECT count(*)::int AS n FROM ledger_transactions`)).toEqual(before);
    expect(await balance(Accounts.agentAvailable(agent).code)).toBe(1_000_000n);
  });

  it('keeps agent debt (owed) at or below zero', async () => {
    const agent = randomUUID();
    await expect(
      ds.transaction((m) =>
        ledger.post(m, {
          code: 'test.owed',
          refId: randomUUID(),
          legs: transfer(Accounts.worldChain(), Accounts.agentOwed(agent), 1n),
        }),
      ),
    ).rejects.toThrow(LedgerBoundsError);
  });

  it('backs the bounds with CHECK constraints, whoever writes', async () => {
    const agent = randomUUID();
    await fund(agent, 10n);
    await expect(
      ds.query(`UPDATE ledger_accounts SET balance = -1 WHERE code = $1`, [Accounts.agentAvailable(agent).code]),
    ).rejects.toThrow(/ck_ledger_accounts_min/);
  });

  it('is append-only: entries and transactions cannot be updated or deleted', async () => {
    await fund(randomUUID(), 5n);
    await expect(ds.query(`UPDATE ledger_entries SET amount = amount + 1`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM ledger_entries`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM ledger_transactions`)).rejects.toThrow(/append-only/);
  });

  it('refuses at commit a journal transaction whose entries do not balance, even written by hand', async () => {
    const account = (await ds.query(`SELECT id FROM ledger_accounts LIMIT 1`))[0].id;
    await expect(
      ds.transaction(async (m) => {
        const id = randomUUID();
        await m.query(`INSERT INTO ledger_transactions (id, code, ref_id) VALUES ($1, 'test.hand', $2)`, [id, id]);
        await m.query(
          `INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, account_version) VALUES ($1, $2, 5, 5, 999999)`,
          [id, account],
        );
      }),
    ).rejects.toThrow(/unbalanced ledger transaction/);
  });

  it('stays consistent under 100 concurrent postings on the same accounts (no deadlock, no lost update)', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await fund(a, 1_000n);
    await fund(b, 1_000n);
    // Opposite directions lock the same two accounts: sorted locking must prevent deadlocks.
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        ds.transaction((m) =>
          ledger.post(m, {
            code: 'test.swap',
            refId: randomUUID(),
            legs:
              i % 2
                ? transfer(Accounts.agentAvailable(a), Accounts.agentAvailable(b), 30n)
                : transfer(Accounts.agentAvailable(b), Accounts.agentAvailable(a), 20n),
          }),
        ),
      ),
    );
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    for (const r of rejected) expect(r.reason).toBeInstanceOf(LedgerBoundsError);
    const total = (await balance(Accounts.agentAvailable(a).code)) + (await balance(Accounts.agentAvailable(b).code));
    expect(total).toBe(2_000n);
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);
  });
});

describe('npm run ledger:check (the CLI)', () => {
  it('prints each invariant and exits 0 on a consistent ledger, 1 when one is violated', async () => {
    const api = await startApi();
    try {
      await seedCharge(api.app, { agentId: randomUUID(), agentFee: 2_000_000n, reputation: 50 });
      const ok = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
        'ledger:check',
      ]);
      expect(await ok.exited).toBe(0);
      expect(ok.output()).toMatch(/ok {3}I1 conservation/);
      expect(ok.output()).toMatch(/ok {3}I10 /);
      expect(ok.output()).toMatch(/ok {3}R1 agent_stats/);
      expect(ok.output()).toMatch(/ok {3}R4 platform_stats/);
      expect(ok.output()).toMatch(/ledger check passed/);

      // Break conservation behind the ledger's back (the CHECK allows it; I1 and I3 must not).
      await api.app
        .get(DataSource)
        .query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = 'platform:revenue:0'`);
      const bad = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
        'ledger:check',
      ]);
      expect(await bad.exited).toBe(1);
      expect(bad.output()).toMatch(/FAIL I1 conservation/);
      expect(bad.output()).toMatch(/FAIL I3 /);
      expect(bad.output()).toMatch(/ledger check FAILED/);

      // A rollup that drifted from the rows it summarises is named too.
      await api.app
        .get(DataSource)
        .query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE code = 'platform:revenue:0'`);
      await api.app.get(DataSource).query(`UPDATE platform_stats SET volume = volume + 1 WHERE shard = 0`);
      const drift = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
        'ledger:check',
      ]);
      expect(await drift.exited).toBe(1);
      expect(drift.output()).toMatch(/ok {3}I1 conservation/);
      expect(drift.output()).toMatch(/FAIL R4 platform_stats/);
    } finally {
      await api.close();
    }
  });
});
