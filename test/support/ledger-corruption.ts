import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { ROLLUP_CHECKS } from '@app/analytics';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { buildLedgerState, LedgerState } from './ledger-state';
import { Domain, startDomain } from './medium';

/** Every check `npm run ledger:check` runs, in its order. */
export const ALL_CHECKS = [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS, ...DISPUTE_CHECKS, ...ROLLUP_CHECKS];

/**
 * One corruption of one row of the valid state, and the one check that must see it. `corrupt`
 * answers what that check's violation must name (the row's id, or the account it is summed into).
 */
export interface Corruption {
  check: string;
  what: string;
  corrupt(q: QueryRunner, s: LedgerState): Promise<string>;
}

interface Failure {
  id: string;
  violations: string[];
}

async function failing(q: QueryRunner): Promise<Failure[]> {
  const report = await runInvariantChecks(q.manager, ALL_CHECKS);
  return report.results.filter((r) => r.violations.length).map(({ id, violations }) => ({ id, violations }));
}

/**
 * In one transaction: every check (none may fail), the corruption, every check again; then rolls
 * back, so each case starts from the same valid state. DDL is transactional in Postgres, so a case
 * may drop the constraint or trigger that would refuse its corruption (a restore without them, a
 * hand edit); a deferred constraint trigger would fire only at commit, which never comes.
 */
async function checksAround(
  domain: Domain,
  corrupt: (q: QueryRunner) => Promise<string>,
): Promise<{ before: Failure[]; after: Failure[]; named: string }> {
  const q = domain.ds.createQueryRunner();
  await q.connect();
  try {
    await q.startTransaction();
    const before = await failing(q);
    const named = await corrupt(q);
    return { before, after: await failing(q), named };
  } finally {
    await q.rollbackTransaction();
    await q.release();
  }
}

/**
 * The table-driven suite: a fresh database, the valid state built by the product's use cases, then
 * for each case exactly its check fails after the corruption, with a violation naming the row.
 */
export function describeCorruptions(title: string, cases: Corruption[]): void {
  describe(title, () => {
    let domain: Domain;
    let state: LedgerState;

    beforeAll(async () => {
      // The state withdraws right after charging: the rolling reserve (not what is tested here) would hold it back.
      domain = await startDomain({ WITHDRAWAL_RESERVE: 'off' });
      state = await buildLedgerState(domain);
    });
    afterAll(() => domain.close());

    it('the valid state passes every check', async () => {
      expect((await checksAround(domain, async () => '')).after).toEqual([]);
    });

    it.each(cases)('$check fails alone, naming the row, when $what', async (c) => {
      const { before, after, named } = await checksAround(domain, (q) => c.corrupt(q, state));
      expect(before).toEqual([]);
      expect(named).not.toBe('');
      expect(after.map((f) => f.id)).toEqual([c.check]);
      expect(after[0].violations).toEqual(expect.arrayContaining([expect.stringContaining(named)]));
    });
  });
}

/**
 * A journal transaction `code`/`refId` posted behind the product's back, balanced and chained (+1
 * then -1 on one revenue shard, whose version counts both), so the journal's own checks still hold.
 */
export async function postBehind(q: QueryRunner, code: string, refId: string): Promise<void> {
  const [acc] = await q.query(
    `SELECT id, balance::text, version::text FROM ledger_accounts WHERE kind = 'revenue' ORDER BY code LIMIT 1`,
  );
  const id = randomUUID();
  await q.query(`INSERT INTO ledger_transactions (id, code, ref_id) VALUES ($1, $2, $3)`, [id, code, refId]);
  await q.query(
    `INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, account_version)
     VALUES ($1, $2, 1, $3::bigint + 1, $4::bigint + 1), ($1, $2, -1, $3::bigint, $4::bigint + 2)`,
    [id, acc.id, acc.balance, acc.version],
  );
  await q.query(`UPDATE ledger_accounts SET version = version + 2 WHERE id = $1`, [acc.id]);
}

/** The id and code of `code`'s account. */
export async function account(q: QueryRunner, code: string): Promise<{ id: string; code: string }> {
  const [row] = await q.query(`SELECT id, code FROM ledger_accounts WHERE code = $1`, [code]);
  return row;
}
