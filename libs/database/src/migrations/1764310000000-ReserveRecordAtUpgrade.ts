import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Upgrading to 1.2 keeps the withdrawals agents had (issue 53). 1.2 reads an agent's established record
 * (the rolling reserve's exemption, libs/payments WithdrawalReserve) as matured money from funded payers,
 * which starts empty at the upgrade: every agent 1.1 had found established had its whole balance locked
 * for up to the filing window again. `agents.reserve_established_at` marks, once, at this migration, the
 * agents whose record 1.1's rule established (its defaults: over the agent's oldest 10,000 charges by
 * payers other than its wallet, at least 20 charges from at least 5 payers, the first 3 days old), counting
 * paid charges only: price-0 runs, the known way to fake 1.1's record (test/medium/reserve-sybil), move no
 * money and establish nothing. A marked agent stays established. Agents registered after the upgrade are never marked: they earn the new record.
 * (On a new database there are no agents: nothing is marked.) The marks are irreversible: `down()` keeps the
 * column and its marks (1.2 code reads and writes it, so dropping it would break a 1.2 still running), and `up()`
 * marks only when it adds the column: a re-run after `migrate:revert` marks nobody, so an agent registered after
 * the real upgrade never gets 1.1's weaker rule.
 */
export class ReserveRecordAtUpgrade1764310000000 implements MigrationInterface {
  name = 'ReserveRecordAtUpgrade1764310000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ existed }] = (await q.query(`SELECT EXISTS (SELECT 1 FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'agents'
        AND column_name = 'reserve_established_at') AS existed`)) as { existed: boolean }[];
    if (existed) return; // re-run after migrate:revert: the marks of the real upgrade stand, nobody else is marked
    await q.query(`ALTER TABLE "agents" ADD "reserve_established_at" timestamptz`);
    await q.query(`UPDATE agents a SET reserve_established_at = now()
      WHERE (SELECT count(*) >= 20 AND count(DISTINCT o.payer) >= 5 AND min(o.at) <= now() - interval '3 days' FROM (
               SELECT lower(t.payer_wallet) AS payer, t.created_at AS at FROM transactions t
                WHERE t.providing_agent_id = a.id AND lower(t.payer_wallet) <> lower(a.wallet) AND t.agent_fee > 0
                ORDER BY t.created_at LIMIT 10000) o)`);
  }

  async down(): Promise<void> {
    // Irreversible on purpose: 1.2 code selects and inserts the column, and a later `up()` must not mark again.
  }
}
