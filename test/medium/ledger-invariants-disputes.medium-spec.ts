import { Corruption, describeCorruptions } from '../support/ledger-corruption';

/**
 * The disputes' and chains' checks (I5d, I6d, I12, I5-chain-available, I5-chain-final) shown able to
 * fail: each corruption of one row of a valid ledger fails exactly its check, whose violation names
 * the row (or, for a check of sums per agent, the agent).
 */
const cases: Corruption[] = [
  {
    check: 'I5d',
    what: "an open dispute's frozen amount changes",
    async corrupt(q, s) {
      await q.query(`UPDATE disputes SET frozen_amount = frozen_amount + 1 WHERE id = $1`, [s.disputes.open]);
      return `agent ${s.earner} frozen`;
    },
  },
  {
    check: 'I6d',
    what: "a resolved dispute's resolution says more was refunded than its refund row",
    async corrupt(q, s) {
      await q.query(`UPDATE disputes SET resolution = resolution || '{"refundAmount": "0.060000"}' WHERE id = $1`, [
        s.disputes.split,
      ]);
      return `dispute ${s.disputes.split} (resolved)`;
    },
  },
  {
    check: 'I12',
    what: "another agent's dispute refund is charged to an agent that already paid out all it received",
    async corrupt(q, s) {
      await q.query(`UPDATE refunds SET transaction_id = $2 WHERE id = $1`, [
        s.refunds.pending,
        s.charges.debtor.transactionId,
      ]);
      return `agent ${s.debtor}: paid out`;
    },
  },
  {
    check: 'I5-chain-available',
    what: "a running chain's available budget drops",
    async corrupt(q, s) {
      await q.query(`UPDATE chains SET available = available - 1 WHERE id = $1`, [s.chains.running]);
      return `chain ${s.chains.running}: available`;
    },
  },
  {
    check: 'I5-chain-final',
    what: 'a final chain counts a node still running',
    async corrupt(q, s) {
      await q.query(`UPDATE chains SET running = 1 WHERE id = $1`, [s.chains.final]);
      return `final chain ${s.chains.final} (failed)`;
    },
  },
  {
    check: 'I5-chain-final',
    what: 'a chain with money in its budget is marked final',
    async corrupt(q, s) {
      await q.query(`UPDATE chains SET status = 'completed' WHERE id = $1`, [s.chains.running]);
      return `final chain ${s.chains.running} (completed) still holds 211000`;
    },
  },
];

describeCorruptions('ledger invariants: disputes and chains (I5d, I6d, I12, I5-chain) each fail alone (medium)', cases);
