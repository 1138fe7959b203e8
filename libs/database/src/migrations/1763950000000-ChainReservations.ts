import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chain's reservations live on its row, not in the ledger: `available` is what the budget
 * (`chain:<id>:budget`, still a ledger account) has not reserved for running nodes. A node's
 * reservation is one guarded update of that row (the update that counts it running), a node's end
 * gives back what it did not spend, and only money that moves is posted: funded, charged (from
 * the budget), refunded. `chain_reserve` refuses a reservation the budget cannot cover with the
 * amount available (SQLSTATE AG002). Chains that ran before this change: what was in flight
 * goes back to the budget (`chain.reservations.merged`) and `available` is the budget less the
 * running nodes' reservations.
 */
export class ChainReservations1763950000000 implements MigrationInterface {
  name = 'ChainReservations1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chains" ADD "available" bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "chains" ADD CONSTRAINT "ck_chains_available" CHECK ("available" >= 0)`);
    await q.query(`CREATE FUNCTION chain_budget_short(available bigint) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        RAISE EXCEPTION 'the chain budget cannot cover the reservation' USING ERRCODE = 'AG002', DETAIL = available::text;
      END $$`);
    await q.query(`SELECT ledger_post(gen_random_uuid(), 'chain.reservations.merged', c.id::text, '{}'::jsonb,
        ARRAY['chain:' || c.id || ':inflight', 'chain:' || c.id || ':budget'], ARRAY['chain_inflight', 'chain_budget'], ARRAY[c.id::text, c.id::text],
        ARRAY[0, 0]::bigint[], ARRAY[NULL, NULL]::bigint[], ARRAY[-a.balance, a.balance]::bigint[])
      FROM chains c JOIN ledger_accounts a ON a.code = 'chain:' || c.id || ':inflight' AND a.balance <> 0`);
    await q.query(`UPDATE chains c SET available = coalesce((SELECT balance FROM ledger_accounts WHERE code = 'chain:' || c.id || ':budget'), 0)
        - coalesce((SELECT sum(reserved) FROM chain_nodes WHERE chain_id = c.id AND status = 'running'), 0)
      WHERE status = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SELECT ledger_post(gen_random_uuid(), 'chain.reservations.split', c.id::text, '{}'::jsonb,
        ARRAY['chain:' || c.id || ':budget', 'chain:' || c.id || ':inflight'], ARRAY['chain_budget', 'chain_inflight'], ARRAY[c.id::text, c.id::text],
        ARRAY[0, 0]::bigint[], ARRAY[NULL, NULL]::bigint[], ARRAY[-r.reserved, r.reserved]::bigint[])
      FROM chains c JOIN (SELECT chain_id, sum(reserved) AS reserved FROM chain_nodes WHERE status = 'running' GROUP BY chain_id) r ON r.chain_id = c.id`);
    await q.query(`DROP FUNCTION chain_budget_short(bigint)`);
    await q.query(`ALTER TABLE "chains" DROP COLUMN "available"`);
  }
}
