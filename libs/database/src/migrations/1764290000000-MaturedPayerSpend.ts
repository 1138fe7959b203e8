import { MigrationInterface, QueryRunner } from 'typeorm';

/** The filing window's default (DISPUTE_FILING_WINDOW_S) and the sweep's grace: the backfill's idea of "matured". */
const BACKFILL_MATURED = `interval '7 days 1 hour'`;

/**
 * A payer's settled spend counts only matured charges (issue 52, H1): before, a charge's agent fee
 * joined `payer_spend` at once, so a payer paid 1.00 to a throwaway agent of its own, banked gains
 * while "funded", then disputed the charge back (the throwaway never answers: client_wins after 48 h).
 * - `transactions.spend_counted`: whether the charge's fee has been added (or found to add nothing).
 *   `payer_spend_mature(cutoff, limit)` claims up to `limit` uncounted charges completed at or before
 *   `cutoff` that have no pending dispute (the worker passes now - DISPUTE_FILING_WINDOW_S - a grace),
 *   marks them counted and adds, per payer and owner, the agent fee (no dispute, or agent_wins), half
 *   of it (split, what the agent kept) or nothing (client_wins: refunded; a payer's own agents; a chain
 *   sub-call an agent made with the payer's budget).
 *   Claimed FOR UPDATE SKIP LOCKED: two workers never count a charge twice.
 * - `ix_transactions_spend_uncounted`: the uncounted charges not under dispute, by completion: the
 *   sweep reads the oldest `limit` of them (the last window's charges, plus any past it).
 * - Backfill: the existing rows were all counted at the charge; existing charges are counted (the
 *   column added true), the ones not matured yet (7 days and the grace, or under dispute) set back to
 *   uncounted, and both tables computed again from the counted ones only.
 */
export class MaturedPayerSpend1764290000000 implements MigrationInterface {
  name = 'MaturedPayerSpend1764290000000';

  async up(q: QueryRunner): Promise<void> {
    // Added true for existing rows (no rewrite), false for new ones.
    await q.query(`ALTER TABLE "transactions" ADD "spend_counted" boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE "transactions" ALTER COLUMN "spend_counted" SET DEFAULT false`);
    await q.query(`UPDATE transactions SET spend_counted = false
      WHERE status = 'disputed' OR coalesce(completed_at, created_at) > now() - ${BACKFILL_MATURED}`);
    await q.query(
      `CREATE INDEX "ix_transactions_spend_uncounted" ON "transactions" ("completed_at") WHERE "spend_counted" = false AND "status" <> 'disputed'`,
    );
    await q.query(`DELETE FROM payer_owner_spend`);
    await q.query(`DELETE FROM payer_spend`);
    await q.query(`INSERT INTO payer_owner_spend (payer, owner, amount)
      SELECT lower(t.payer_wallet), lower(a.wallet), sum(${KEPT})
        FROM transactions t JOIN agents a ON a.id = t.providing_agent_id
        LEFT JOIN disputes d ON d.id = t.dispute_id
       WHERE t.spend_counted AND ${PAYERS_OWN_CHOICE} AND lower(t.payer_wallet) <> lower(a.wallet)
       GROUP BY 1, 2 HAVING sum(${KEPT}) > 0`);
    await q.query(
      `INSERT INTO payer_spend (payer, amount) SELECT payer, sum(amount) FROM payer_owner_spend GROUP BY payer`,
    );
    await q.query(PAYER_SPEND_MATURE);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION payer_spend_mature(timestamptz, integer)`);
    await q.query(`DROP INDEX "ix_transactions_spend_uncounted"`);
    // Back to counting every charge at once: what was not counted yet joins the tables.
    await q.query(`INSERT INTO payer_owner_spend AS s (payer, owner, amount)
      SELECT lower(t.payer_wallet), lower(a.wallet), sum(${KEPT})
        FROM transactions t JOIN agents a ON a.id = t.providing_agent_id
        LEFT JOIN disputes d ON d.id = t.dispute_id
       WHERE NOT t.spend_counted AND t.status <> 'disputed' AND lower(t.payer_wallet) <> lower(a.wallet)
       GROUP BY 1, 2 HAVING sum(${KEPT}) > 0
      ON CONFLICT (payer, owner) DO UPDATE SET amount = s.amount + EXCLUDED.amount`);
    await q.query(`DELETE FROM payer_spend`);
    await q.query(
      `INSERT INTO payer_spend (payer, amount) SELECT payer, sum(amount) FROM payer_owner_spend GROUP BY payer`,
    );
    await q.query(`ALTER TABLE "transactions" DROP COLUMN "spend_counted"`);
  }
}

/** What the agent kept of a charge's fee (t: transactions, d: its dispute, if any). */
const KEPT = `CASE WHEN t.status = 'refunded' THEN 0 WHEN d.resolution->>'outcome' = 'split' THEN t.agent_fee - t.agent_fee / 2
  ELSE t.agent_fee END`;

/**
 * A charge the payer's wallet asked for itself (`requesting_agent` a wallet): a chain sub-call an agent
 * made (`requesting_agent` its id) spends the payer's budget on the agent's choice, which buys the
 * payer no standing (issue 52, M2).
 */
const PAYERS_OWN_CHOICE = `t.requesting_agent LIKE '0x%'`;

/** Counts up to p_limit matured charges (completed at or before p_cutoff, no pending dispute); answers how many. */
const PAYER_SPEND_MATURE = `CREATE FUNCTION payer_spend_mature(p_cutoff timestamptz, p_limit integer)
  RETURNS integer LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    WITH claimed AS (
      UPDATE transactions t SET spend_counted = true
       WHERE t.id IN (SELECT u.id FROM transactions u
                       WHERE u.spend_counted = false AND u.status <> 'disputed' AND u.completed_at <= p_cutoff
                       ORDER BY u.completed_at LIMIT greatest(p_limit, 0) FOR UPDATE SKIP LOCKED)
         AND t.spend_counted = false AND t.status <> 'disputed'
      RETURNING t.payer_wallet, t.requesting_agent, t.providing_agent_id, t.agent_fee, t.status, t.dispute_id),
    kept AS (
      SELECT lower(t.payer_wallet) AS payer, lower(a.wallet) AS owner, sum(${KEPT}) AS amount
        FROM claimed t JOIN agents a ON a.id = t.providing_agent_id LEFT JOIN disputes d ON d.id = t.dispute_id
       WHERE ${PAYERS_OWN_CHOICE} AND lower(t.payer_wallet) <> lower(a.wallet)
       GROUP BY 1, 2 HAVING sum(${KEPT}) > 0),
    owners AS (
      INSERT INTO payer_owner_spend AS s (payer, owner, amount) SELECT payer, owner, amount FROM kept ORDER BY payer, owner
        ON CONFLICT (payer, owner) DO UPDATE SET amount = s.amount + EXCLUDED.amount),
    totals AS (
      INSERT INTO payer_spend AS s (payer, amount) SELECT payer, sum(amount) FROM kept GROUP BY payer ORDER BY payer
        ON CONFLICT (payer) DO UPDATE SET amount = s.amount + EXCLUDED.amount)
    -- Data-modifying WITH parts run once whether read or not.
    SELECT count(*)::int INTO n FROM claimed;
    RETURN n;
  END $$`;
