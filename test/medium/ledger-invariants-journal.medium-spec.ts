import { randomUUID } from 'node:crypto';
import { Corruption, describeCorruptions, postBehind } from '../support/ledger-corruption';

/**
 * The journal's own checks (I1-I4, I10) shown able to fail: each corruption of one row of a valid
 * ledger fails exactly its check, whose violation names the row. Several of them are also refused
 * by the schema (append-only triggers, CHECK bounds, the unique posting, the balanced-at-commit
 * trigger): the case drops that guard first, as a restore without constraints or a hand edit would.
 */
const available = (agentId: string) => `agent:${agentId}:available`;

const cases: Corruption[] = [
  {
    check: 'I1',
    what: 'an account row with a balance is deleted, its entries left behind',
    async corrupt(q) {
      const [acc] = await q.query(
        `SELECT id FROM ledger_accounts WHERE kind = 'revenue' AND balance <> 0 ORDER BY code LIMIT 1`,
      );
      await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT fk_ledger_entries_account`);
      await q.query(`DELETE FROM ledger_accounts WHERE id = $1`, [acc.id]);
      return `missing account ${acc.id}`;
    },
  },
  {
    check: 'I2',
    what: 'a journal transaction is written without entries',
    async corrupt(q) {
      const ref = `adj_${randomUUID()}`;
      await q.query(`INSERT INTO ledger_transactions (id, code, ref_id) VALUES ($1, 'manual.adjustment', $2)`, [
        randomUUID(),
        ref,
      ]);
      return `transaction manual.adjustment/${ref}: 0 entries`;
    },
  },
  {
    check: 'I3',
    what: "an account's version no longer counts its entries",
    async corrupt(q, s) {
      await q.query(`UPDATE ledger_accounts SET version = version + 1 WHERE code = $1`, [available(s.earner)]);
      return `account ${available(s.earner)}: balance`;
    },
  },
  {
    check: 'I3',
    what: "an account's last entry's balance_after breaks the chain",
    async corrupt(q, s) {
      await q.query(`ALTER TABLE ledger_entries DISABLE TRIGGER tr_ledger_entries_append_only`);
      const [rows] = await q.query(
        // [rows, count] for an UPDATE ... RETURNING
        `UPDATE ledger_entries SET balance_after = balance_after + 1
          WHERE id = (SELECT e.id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
                       WHERE a.code = $1 ORDER BY e.account_version DESC LIMIT 1)
          RETURNING account_version::text`,
        [available(s.earner)],
      );
      return `account ${available(s.earner)}: entry v${rows[0].account_version} breaks the balance chain`;
    },
  },
  {
    check: 'I4',
    what: "an account's lower bound is raised above its balance",
    async corrupt(q, s) {
      await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ck_ledger_accounts_min`);
      await q.query(`UPDATE ledger_accounts SET min_balance = balance + 1 WHERE code = $1`, [available(s.earner)]);
      return `account ${available(s.earner)} out of bounds`;
    },
  },
  {
    check: 'I4',
    what: "an account's upper bound is lowered below its balance",
    async corrupt(q, s) {
      await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ck_ledger_accounts_max`);
      await q.query(`UPDATE ledger_accounts SET max_balance = balance - 1 WHERE code = $1`, [available(s.earner)]);
      return `account ${available(s.earner)} out of bounds`;
    },
  },
  {
    check: 'I10',
    what: 'a business event is posted a second time',
    async corrupt(q, s) {
      await q.query(`DROP INDEX ux_ledger_transactions_code_ref`);
      await postBehind(q, 'chain.closed', s.chains.final);
      return `chain.closed/${s.chains.final} posted 2 times`;
    },
  },
  {
    check: 'I10',
    what: "a dispute's freeze is posted a second time (the dispute checks still answer)",
    async corrupt(q, s) {
      await q.query(`DROP INDEX ux_ledger_transactions_code_ref`);
      await postBehind(q, 'dispute.frozen', s.disputes.open);
      return `dispute.frozen/${s.disputes.open} posted 2 times`;
    },
  },
];

describeCorruptions('ledger invariants: the journal (I1-I4, I10) each fail alone (medium)', cases);
