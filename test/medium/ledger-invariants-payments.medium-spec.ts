import { newId } from '@app/common';
import { Corruption, describeCorruptions, postBehind } from '../support/ledger-corruption';
import { insertSettledPayment } from '../support/ledger-state';

/**
 * The checks tying the journal to the payment rows (I5-I9, I11) shown able to fail: each
 * corruption of one row of a valid ledger fails exactly its check, whose violation names the row
 * (or, for a check of sums per account, the account's owner). A journal transaction "posted
 * behind" is balanced and chained, so only the check that reads its code sees it.
 */
const cases: Corruption[] = [
  {
    check: 'I5',
    what: 'a held escrow hold grows',
    async corrupt(q, s) {
      await q.query(`UPDATE escrow_holds SET amount = amount + 1 WHERE id = $1`, [s.charges.held.holdId]);
      return `agent ${s.earner} escrow`;
    },
  },
  {
    check: 'I5',
    what: 'a pending withdrawal grows (its fee rule kept)',
    async corrupt(q, s) {
      await q.query(`UPDATE withdrawals SET amount = amount + 1, net_amount = net_amount + 1 WHERE id = $1`, [
        s.withdrawals.pending,
      ]);
      return `agent ${s.earner} withdrawing`;
    },
  },
  {
    check: 'I5',
    what: 'an unpaid refund grows',
    async corrupt(q, s) {
      await q.query(`UPDATE refunds SET amount = amount + 1 WHERE id = $1`, [s.refunds.chain]);
      return `client ${s.payer} refund_payable`;
    },
  },
  {
    check: 'I6',
    what: 'a hold released in the journal is marked refunded',
    async corrupt(q, s) {
      await q.query(`UPDATE escrow_holds SET status = 'refunded' WHERE id = $1`, [s.charges.released.holdId]);
      return `hold ${s.charges.released.holdId} (refunded) has 1 resolving`;
    },
  },
  {
    check: 'I6',
    what: 'a pending withdrawal has a completion posted',
    async corrupt(q, s) {
      await postBehind(q, 'withdrawal.completed', s.withdrawals.pending);
      return `withdrawal ${s.withdrawals.pending} (pending) has 1 resolving`;
    },
  },
  {
    check: 'I6',
    what: 'an unpaid refund has its payment posted',
    async corrupt(q, s) {
      await postBehind(q, 'refund.paid', s.refunds.chain);
      return `refund ${s.refunds.chain} (pending) has 1 resolving`;
    },
  },
  {
    check: 'I6',
    what: 'a withdrawal row appears that no request posted',
    async corrupt(q, s) {
      const id = newId('wd');
      await q.query(
        `INSERT INTO withdrawals (id, agent_id, amount, fee, net_amount, destination_wallet, status)
         SELECT $1, agent_id, amount, fee, net_amount, destination_wallet, 'failed' FROM withdrawals WHERE id = $2`,
        [id, s.withdrawals.failed],
      );
      return `withdrawal-request ${id} (failed) has 0 resolving`;
    },
  },
  {
    check: 'I7',
    what: "a transaction's cut is not 5% of its agent fee (gross, fees and earnings kept)",
    async corrupt(q, s) {
      // ck_transactions_split keeps cut + earnings = agent fee and gross = platform fee + agent fee.
      const sql = `UPDATE transactions SET platform_fee = platform_fee - 1, agent_fee = agent_fee + 1, platform_cut = platform_cut + 1`;
      await q.query(`${sql} WHERE id = $1`, [s.charges.released.transactionId]);
      return `transaction ${s.charges.released.transactionId} breaks the fee rules`;
    },
  },
  {
    check: 'I7',
    what: "a withdrawal's fee is not 0.10 (net = amount - fee kept)",
    async corrupt(q, s) {
      await q.query(`UPDATE withdrawals SET fee = 100001, net_amount = amount - 100001 WHERE id = $1`, [
        s.withdrawals.pending,
      ]);
      return `withdrawal ${s.withdrawals.pending} breaks the fee rules`;
    },
  },
  {
    check: 'I8',
    what: "a settled payment's value changes",
    async corrupt(q, s) {
      await q.query(`UPDATE payments SET value = value + 1 WHERE id = $1`, [s.charges.released.paymentId]);
      return `payment ${s.charges.released.paymentId}: `;
    },
  },
  {
    check: 'I8',
    what: 'a completed withdrawal grows (its fee rule kept)',
    async corrupt(q, s) {
      await q.query(`UPDATE withdrawals SET amount = amount + 1, net_amount = net_amount + 1 WHERE id = $1`, [
        s.withdrawals.completed,
      ]);
      return `withdrawal ${s.withdrawals.completed}: `;
    },
  },
  {
    check: 'I9',
    what: 'a settled authorization funds nothing',
    async corrupt(q, s) {
      return `payment ${await insertSettledPayment(q, s.payer, 10_000n, newId('req'))} funds 0`;
    },
  },
  {
    check: 'I11',
    what: "a debt's repaid amount changes",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_debts SET repaid = repaid + 1 WHERE agent_id = $1`, [s.debtor]);
      return `agent ${s.debtor} owed`;
    },
  },
  {
    check: 'I11',
    what: "a debt's refunded amount changes (with its repaid amount, as ck_agent_debts_amounts asks)",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_debts SET repaid = repaid + 1, refunded = refunded + 1 WHERE agent_id = $1`, [
        s.debtor,
      ]);
      return `client ${s.payer} refund_due`;
    },
  },
];

describeCorruptions('ledger invariants: payments (I5-I9, I11) each fail alone (medium)', cases);
