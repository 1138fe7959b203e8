import { EntityManager } from 'typeorm';
import { InvariantCheck } from '@app/ledger';

type Row = Record<string, unknown>;

/**
 * I8's total names no row: on a mismatch, each settled payment, completed withdrawal and paid refund
 * whose journal transaction moved through world:chain other than its row's amount (net in: a payment
 * +value, a payout -amount), and each journal transaction moving world:chain for no such row.
 */
async function worldMismatches(m: EntityManager): Promise<string[]> {
  const rows: Row[] = await m.query(
    `WITH world AS (SELECT e.transaction_id, -sum(e.amount) AS net_in FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
                     WHERE a.kind = 'world' GROUP BY 1 HAVING sum(e.amount) <> 0),
          by_row AS (
            SELECT t.id AS tx, 'payment ' || p.id AS what, p.value AS net_in FROM payments p
              JOIN ledger_transactions t ON t.code IN ('registration.fee', 'registration.refunded') AND t.ref_id = p.id WHERE p.status = 'settled'
            UNION ALL
            SELECT t.id, 'payment ' || p.id, p.value FROM payments p JOIN transactions tr ON tr.payment_id = p.id
              JOIN ledger_transactions t ON t.code = 'execution.settled' AND t.ref_id = tr.id WHERE p.status = 'settled'
            UNION ALL
            SELECT t.id, 'payment ' || p.id, p.value FROM payments p
              JOIN ledger_transactions t ON t.code = 'chain.funded' AND t.metadata->>'paymentId' = p.id WHERE p.status = 'settled'
            UNION ALL
            SELECT t.id, 'withdrawal ' || w.id, -w.net_amount FROM withdrawals w
              LEFT JOIN ledger_transactions t ON t.code = 'withdrawal.completed' AND t.ref_id = w.id WHERE w.status = 'completed'
            UNION ALL
            SELECT t.id, 'refund ' || r.id, -r.amount FROM refunds r
              LEFT JOIN ledger_transactions t ON t.code = 'refund.paid' AND t.ref_id = r.id WHERE r.status = 'completed')
     SELECT coalesce(b.what, 'journal transaction ' || t.code || '/' || t.ref_id) AS what,
            coalesce(b.net_in, 0)::text AS row_in, coalesce(w.net_in, 0)::text AS ledger_in
       FROM by_row b FULL JOIN world w ON w.transaction_id = b.tx LEFT JOIN ledger_transactions t ON t.id = w.transaction_id
      WHERE coalesce(b.net_in, 0) <> coalesce(w.net_in, 0)`,
  );
  return rows.map((r) => `${r.what}: ${r.row_in} net in by its row, ${r.ledger_in} through world:chain`);
}

/** Invariants that tie the journal to the payment rows (reliability.md §1.3, I5-I10). */
export const PAYMENT_CHECKS: InvariantCheck[] = [
  {
    id: 'I5',
    description:
      'holds match accounts: escrow = held holds, withdrawing = open withdrawals, refund_payable = unpaid refunds',
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH acc AS (SELECT owner_id, kind, balance FROM ledger_accounts WHERE kind IN ('escrow', 'withdrawing', 'refund_payable')),
              holds AS (SELECT agent_id::text AS owner_id, 'escrow' AS kind, sum(amount) AS total FROM escrow_holds WHERE status = 'held' GROUP BY agent_id),
              wds AS (SELECT agent_id::text AS owner_id, 'withdrawing' AS kind, sum(amount) AS total FROM withdrawals WHERE status IN ('pending', 'processing') GROUP BY agent_id),
              rfs AS (SELECT wallet AS owner_id, 'refund_payable' AS kind, sum(amount) AS total FROM refunds WHERE status <> 'completed' GROUP BY wallet),
              expected AS (SELECT * FROM holds UNION ALL SELECT * FROM wds UNION ALL SELECT * FROM rfs)
         SELECT coalesce(a.owner_id, e.owner_id) AS owner, coalesce(a.kind, e.kind) AS kind,
                coalesce(a.balance, 0)::text AS balance, coalesce(e.total, 0)::text AS expected
           FROM acc a FULL JOIN expected e ON a.owner_id = e.owner_id AND a.kind = e.kind
          WHERE coalesce(a.balance, 0) <> coalesce(e.total, 0)`,
      );
      return rows.map(
        (r) =>
          `${r.kind === 'refund_payable' ? 'client' : 'agent'} ${r.owner} ${r.kind}: account ${r.balance}, rows ${r.expected}`,
      );
    },
  },
  {
    id: 'I6',
    description:
      'resolve once: terminal holds, withdrawals and refunds have exactly one resolving journal transaction, open ones none',
    async run(m) {
      const rows: Row[] = await m.query(
        `SELECT 'hold' AS what, h.id, h.status, count(t.id) AS n FROM escrow_holds h
           LEFT JOIN ledger_transactions t ON t.code = 'escrow.released' AND t.ref_id = h.id
          GROUP BY h.id HAVING count(t.id) <> CASE WHEN h.status = 'released' AND h.amount > 0 THEN 1 ELSE 0 END
         UNION ALL
         SELECT 'withdrawal', w.id, w.status, count(t.id) FROM withdrawals w
           LEFT JOIN ledger_transactions t ON t.code IN ('withdrawal.completed', 'withdrawal.failed') AND t.ref_id = w.id
          GROUP BY w.id HAVING count(t.id) <> CASE WHEN w.status IN ('completed', 'failed') THEN 1 ELSE 0 END
         UNION ALL
         SELECT 'refund', r.id, r.status, count(t.id) FROM refunds r
           LEFT JOIN ledger_transactions t ON t.code = 'refund.paid' AND t.ref_id = r.id
          GROUP BY r.id HAVING count(t.id) <> CASE WHEN r.status = 'completed' THEN 1 ELSE 0 END
         UNION ALL
         SELECT 'withdrawal-request', w.id, w.status, count(t.id) FROM withdrawals w
           LEFT JOIN ledger_transactions t ON t.code = 'withdrawal.requested' AND t.ref_id = w.id
          GROUP BY w.id HAVING count(t.id) <> 1`,
      );
      return rows.map((r) => `${r.what} ${r.id} (${r.status}) has ${r.n} resolving transactions`);
    },
  },
  {
    id: 'I7',
    description:
      'fees: cut = half-up 5% and cut + earnings = fee; completed withdrawals pay fee 0.10 and net = amount - fee; a charged execution paid by x402 refunds exactly what was authorized above its fee (in a chain it goes back to the budget)',
    async run(m) {
      const rows: Row[] = await m.query(
        `SELECT 'transaction' AS what, id FROM transactions
          WHERE platform_cut <> (agent_fee * 5 + 50) / 100 OR platform_cut + agent_earnings <> agent_fee
         UNION ALL
         SELECT 'withdrawal', id FROM withdrawals WHERE fee <> 100000 OR net_amount <> amount - fee
         UNION ALL
         SELECT 'execution', e.id FROM executions e LEFT JOIN refunds r ON r.execution_id = e.id
          WHERE e.transaction_id IS NOT NULL AND e.chain_id IS NULL AND coalesce(r.amount, 0) <> e.authorized_agent_fee - e.agent_fee`,
      );
      return rows.map((r) => `${r.what} ${r.id} breaks the fee rules`);
    },
  },
  {
    id: 'I8',
    description:
      'external reconciliation: -world:chain (its shards summed) = settled payments - paid withdrawal nets (- paid refunds)',
    async run(m) {
      const [r]: Row[] = await m.query(
        `WITH funded AS (
           SELECT p.value FROM payments p JOIN ledger_transactions t ON t.code IN ('registration.fee', 'registration.refunded') AND t.ref_id = p.id WHERE p.status = 'settled'
           UNION ALL
           SELECT p.value FROM payments p JOIN transactions tr ON tr.payment_id = p.id
             JOIN ledger_transactions t ON t.code = 'execution.settled' AND t.ref_id = tr.id WHERE p.status = 'settled'
           UNION ALL
           SELECT p.value FROM payments p JOIN ledger_transactions t ON t.code = 'chain.funded' AND t.metadata->>'paymentId' = p.id WHERE p.status = 'settled')
         SELECT coalesce((SELECT -sum(balance) FROM ledger_accounts WHERE kind = 'world'), 0)::text AS ledger,
                ((SELECT coalesce(sum(value), 0) FROM funded)
                 - (SELECT coalesce(sum(net_amount), 0) FROM withdrawals WHERE status = 'completed')
                 - (SELECT coalesce(sum(amount), 0) FROM refunds WHERE status = 'completed'))::text AS rows`,
      );
      if (r.ledger === r.rows) return [];
      return [`world:chain says ${r.ledger} came in net; payment rows say ${r.rows}`, ...(await worldMismatches(m))];
    },
  },
  {
    id: 'I9',
    description:
      'payment uniqueness: a settled authorization funds exactly one registration (or its refund), execution or chain',
    async run(m) {
      const rows: Row[] = await m.query(
        `SELECT id, n FROM (
           SELECT p.id, (SELECT count(*) FROM ledger_transactions t WHERE t.code IN ('registration.fee', 'registration.refunded') AND t.ref_id = p.id)
                        + (SELECT count(*) FROM transactions tr WHERE tr.payment_id = p.id)
                        + (SELECT count(*) FROM ledger_transactions t WHERE t.code = 'chain.funded' AND t.metadata->>'paymentId' = p.id) AS n
             FROM payments p WHERE p.status = 'settled' AND p.ref_id IS NOT NULL) funded
          WHERE n <> 1`,
      );
      return rows.map((r) => `payment ${r.id} funds ${r.n} journal transactions`);
    },
  },
  {
    id: 'I11',
    description:
      "debts match accounts: each agent's owed account = minus what its debts still lack (agent_debts), each payer's refund_due = what debts to it have not refunded yet",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH acc AS (SELECT owner_id, kind, CASE WHEN kind = 'owed' THEN -balance ELSE balance END AS balance FROM ledger_accounts WHERE kind IN ('owed', 'refund_due')),
              owed AS (SELECT agent_id::text AS owner_id, 'owed' AS kind, sum(amount - repaid) AS total FROM agent_debts GROUP BY agent_id),
              due AS (SELECT creditor_wallet AS owner_id, 'refund_due' AS kind, sum(amount - refunded) AS total FROM agent_debts
                       WHERE creditor_wallet IS NOT NULL GROUP BY creditor_wallet),
              expected AS (SELECT * FROM owed UNION ALL SELECT * FROM due)
         SELECT coalesce(a.owner_id, e.owner_id) AS owner, coalesce(a.kind, e.kind) AS kind, coalesce(a.balance, 0)::text AS balance, coalesce(e.total, 0)::text AS expected
           FROM acc a FULL JOIN expected e ON a.owner_id = e.owner_id AND a.kind = e.kind
          WHERE coalesce(a.balance, 0) <> coalesce(e.total, 0)`,
      );
      return rows.map(
        (r) =>
          `${r.kind === 'owed' ? 'agent' : 'client'} ${r.owner} ${r.kind}: account ${r.balance}, debts ${r.expected}`,
      );
    },
  },
  {
    id: 'I10',
    description: 'idempotent replay: no business event is posted twice (code, ref_id unique)',
    async run(m) {
      const rows: Row[] = await m.query(
        `SELECT code, ref_id, count(*) AS n FROM ledger_transactions GROUP BY code, ref_id HAVING count(*) > 1`,
      );
      return rows.map((r) => `${r.code}/${r.ref_id} posted ${r.n} times`);
    },
  },
];
