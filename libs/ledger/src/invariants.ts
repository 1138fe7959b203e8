import { EntityManager } from 'typeorm';

/** One invariant (reliability.md §1.3): returns a description of every violation found. */
export interface InvariantCheck {
  id: string;
  description: string;
  run(manager: EntityManager): Promise<string[]>;
}

export interface InvariantReport {
  ok: boolean;
  results: { id: string; description: string; violations: string[] }[];
}

export async function runInvariantChecks(manager: EntityManager, checks: InvariantCheck[]): Promise<InvariantReport> {
  const results = [];
  for (const check of checks)
    results.push({ id: check.id, description: check.description, violations: await check.run(manager) });
  return { ok: results.every((r) => r.violations.length === 0), results };
}

const rowsToMessages = (rows: Record<string, unknown>[], fmt: (r: Record<string, unknown>) => string) => rows.map(fmt);

/** The journal's own invariants: I1 conservation, I2 balanced transactions, I3 fold, I4 bounds. */
export const LEDGER_CHECKS: InvariantCheck[] = [
  {
    id: 'I1',
    description: 'conservation: the balances of all accounts sum to zero',
    async run(m) {
      const [{ total }] = await m.query(`SELECT coalesce(sum(balance), 0)::text AS total FROM ledger_accounts`);
      if (total === '0') return [];
      // The sum names no row: name the accounts it comes from, a balance that is not its entries' fold
      // (I3 reports it too) or entries whose account row is gone (which only this check sees).
      const rows = await m.query(
        `SELECT 'account ' || a.code AS what, a.balance::text, coalesce(sum(e.amount), 0)::text AS folded
           FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
          GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)
         UNION ALL
         SELECT 'missing account ' || e.account_id, NULL, sum(e.amount)::text FROM ledger_entries e
          WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id) GROUP BY e.account_id`,
      );
      return [
        `sum of balances is ${total}`,
        ...rowsToMessages(rows, (r) =>
          r.balance === null
            ? `${r.what}: its entries sum to ${r.folded}`
            : `${r.what}: balance ${r.balance}, its entries sum to ${r.folded}`,
        ),
      ];
    },
  },
  {
    id: 'I2',
    description: 'every journal transaction has at least two entries summing to zero',
    async run(m) {
      const rows = await m.query(
        `SELECT t.id, t.code, t.ref_id, count(e.id) AS n, coalesce(sum(e.amount), 0)::text AS total
           FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
          GROUP BY t.id HAVING count(e.id) < 2 OR coalesce(sum(e.amount), 0) <> 0`,
      );
      return rowsToMessages(rows, (r) => `transaction ${r.code}/${r.ref_id}: ${r.n} entries summing to ${r.total}`);
    },
  },
  {
    id: 'I3',
    description: 'each balance is the fold of its entries, versions count them, and balance_after chains',
    async run(m) {
      const folds = await m.query(
        `SELECT a.code, a.balance::text, a.version::text, coalesce(sum(e.amount), 0)::text AS folded, count(e.id)::text AS n
           FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
          GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0) OR a.version <> count(e.id)`,
      );
      const chain = await m.query(
        `SELECT a.code, e.account_version::text
           FROM (SELECT account_id, account_version, balance_after, amount,
                        lag(balance_after, 1, 0::bigint) OVER (PARTITION BY account_id ORDER BY account_version) AS prev,
                        row_number() OVER (PARTITION BY account_id ORDER BY account_version) AS rn
                   FROM ledger_entries) e
           JOIN ledger_accounts a ON a.id = e.account_id
          WHERE e.balance_after <> e.prev + e.amount OR e.account_version <> e.rn`,
      );
      return [
        ...rowsToMessages(
          folds,
          (r) => `account ${r.code}: balance ${r.balance} v${r.version}, entries fold to ${r.folded} in ${r.n}`,
        ),
        ...rowsToMessages(chain, (r) => `account ${r.code}: entry v${r.account_version} breaks the balance chain`),
      ];
    },
  },
  {
    id: 'I4',
    description: 'no account is outside its bounds',
    async run(m) {
      const rows = await m.query(
        `SELECT code, balance::text FROM ledger_accounts
          WHERE (min_balance IS NOT NULL AND balance < min_balance) OR (max_balance IS NOT NULL AND balance > max_balance)`,
      );
      return rowsToMessages(rows, (r) => `account ${r.code} out of bounds at ${r.balance}`);
    },
  },
];
