import { InvariantCheck } from '@app/ledger';

type Row = Record<string, unknown>;

/** The disputes' part of reliability.md §1.3: frozen money matches open disputes (I5), each dispute moved its money once (I6). */
export const DISPUTE_CHECKS: InvariantCheck[] = [
  {
    id: 'I5d',
    description: "holds match accounts: each agent's frozen account = the frozen amounts of its open disputes",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH acc AS (SELECT owner_id, balance FROM ledger_accounts WHERE kind = 'frozen'),
              open AS (SELECT agent_id::text AS owner_id, sum(frozen_amount) AS total FROM disputes WHERE status <> 'resolved' GROUP BY agent_id)
         SELECT coalesce(a.owner_id, o.owner_id) AS owner, coalesce(a.balance, 0)::text AS balance, coalesce(o.total, 0)::text AS expected
           FROM acc a FULL JOIN open o ON a.owner_id = o.owner_id
          WHERE coalesce(a.balance, 0) <> coalesce(o.total, 0)`,
      );
      return rows.map((r) => `agent ${r.owner} frozen: account ${r.balance}, open disputes ${r.expected}`);
    },
  },
  {
    id: 'I6d',
    description:
      'resolve once: each dispute froze its earnings in one journal transaction (none when they were 0), a resolved one released and refunded what its resolution says (one transaction each; what the agent had withdrawn left as its debt, or advanced by the admin), an open one neither',
    async run(m) {
      // (code, ref_id) is unique (I10), so each posting exists at most once; here: exactly when it should.
      // LIMIT 1: a second posting (the index gone) is I10's to report; without it this query would fail
      // the whole run (more than one row in a scalar subquery) and no check would be reported.
      const rows: Row[] = await m.query(
        `WITH d AS (
           SELECT d.id, d.status, d.frozen_amount,
                  round(coalesce((d.resolution->>'refundAmount')::numeric, 0) * 1000000)::bigint AS refund,
                  round(coalesce((d.resolution->>'releasedAmount')::numeric, 0) * 1000000)::bigint AS released,
                  (SELECT id FROM ledger_transactions WHERE code = 'dispute.frozen' AND ref_id = d.id LIMIT 1) AS frozen_tx,
                  (SELECT id FROM ledger_transactions WHERE code = 'dispute.released' AND ref_id = d.id LIMIT 1) AS released_tx,
                  (SELECT id FROM ledger_transactions WHERE code = 'dispute.refunded' AND ref_id = d.id LIMIT 1) AS refunded_tx,
                  (SELECT amount FROM refunds WHERE id = 'rfd_' || substr(d.id, 5)) AS refund_row,
                  coalesce((SELECT amount FROM agent_debts WHERE dispute_id = d.id AND creditor_wallet IS NOT NULL), 0) AS payer_debt,
                  coalesce((SELECT amount FROM agent_debts WHERE dispute_id = d.id AND creditor_wallet IS NULL), 0) AS advanced,
                  d.advanced_amount
             FROM disputes d)
         SELECT id, status FROM d
          WHERE (frozen_tx IS NULL) <> (frozen_amount = 0)
             OR (status <> 'resolved' AND (released_tx IS NOT NULL OR refunded_tx IS NOT NULL OR refund_row IS NOT NULL))
             OR advanced <> advanced_amount OR (status <> 'resolved' AND payer_debt > 0)
             OR (status = 'resolved' AND ((released_tx IS NULL) <> (released = 0) OR (refunded_tx IS NULL) <> (coalesce(refund_row, 0) = 0)
                  OR coalesce(refund_row, 0) <> refund - payer_debt
                  OR released - coalesce((SELECT sum(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
                                           WHERE e.transaction_id = refunded_tx AND a.kind = 'frozen'), 0) <> frozen_amount))`,
      );
      return rows.map(
        (r) =>
          `dispute ${r.id} (${r.status}): its journal transactions or refund do not match its frozen amount and resolution`,
      );
    },
  },
  {
    id: 'I12',
    description:
      "no advance: for every agent, what the platform paid out on its account (withdrawals not failed, dispute refunds and repayments) never exceeds what it received for the agent's transactions, except an admin's explicit advances",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH received AS (SELECT providing_agent_id AS agent_id, sum(agent_fee) AS total FROM transactions GROUP BY 1),
              withdrawn AS (SELECT agent_id, sum(amount) AS total FROM withdrawals WHERE status <> 'failed' GROUP BY 1),
              refunded AS (SELECT t.providing_agent_id AS agent_id, sum(r.amount) AS total FROM refunds r JOIN transactions t ON t.id = r.transaction_id
                            WHERE r.reason IN ('dispute', 'dispute_repayment') GROUP BY 1),
              advanced AS (SELECT agent_id, sum(advanced_amount) AS total FROM disputes GROUP BY 1),
              agents AS (SELECT agent_id FROM withdrawn UNION SELECT agent_id FROM refunded)
         SELECT a.agent_id, coalesce(w.total, 0)::text AS withdrawn, coalesce(f.total, 0)::text AS refunded,
                coalesce(r.total, 0)::text AS received, coalesce(v.total, 0)::text AS advanced
           FROM agents a LEFT JOIN received r USING (agent_id) LEFT JOIN withdrawn w USING (agent_id)
           LEFT JOIN refunded f USING (agent_id) LEFT JOIN advanced v USING (agent_id)
          WHERE coalesce(w.total, 0) + coalesce(f.total, 0) > coalesce(r.total, 0) + coalesce(v.total, 0)`,
      );
      return rows.map(
        (r) =>
          `agent ${r.agent_id}: paid out ${r.withdrawn} withdrawn + ${r.refunded} refunded, received ${r.received} (+ ${r.advanced} advanced)`,
      );
    },
  },
];
