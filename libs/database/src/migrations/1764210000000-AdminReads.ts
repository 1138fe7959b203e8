import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator's reads (`GET /admin/...`):
 * - `agents.suspended_at`: when the agent was last suspended (by an admin or by its reputation),
 *   set by a trigger on every change of status to `suspended` and cleared when it leaves it (null
 *   for agents suspended before this migration: not recorded);
 *   (the trigger runs only when the status changes, not on every update of the row);
 * - its indexes are built CONCURRENTLY by the next migration (AdminReadIndexes).
 * lock_timeout makes the migration fail (and be retried) rather than queue every read of `agents`
 * behind its ALTER while a long transaction holds the table.
 */
export class AdminReads1764210000000 implements MigrationInterface {
  name = 'AdminReads1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '5s'`);
    await q.query(`ALTER TABLE "agents" ADD "suspended_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`CREATE OR REPLACE FUNCTION agents_suspended_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'suspended' THEN
          NEW.suspended_at := now();
        ELSE
          NEW.suspended_at := NULL;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER "tr_agents_suspended_at" BEFORE UPDATE OF "status" ON "agents"
      FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION agents_suspended_at()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "tr_agents_suspended_at" ON "agents"`);
    await q.query(`DROP FUNCTION agents_suspended_at()`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "suspended_at"`);
  }
}
