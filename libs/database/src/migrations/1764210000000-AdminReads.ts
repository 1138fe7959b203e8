import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator's reads (`GET /admin/...`):
 * - `agents.suspended_at`: when the agent was last suspended (by an admin or by its reputation),
 *   set by a trigger on every change of status to `suspended` and cleared when it leaves it (null
 *   for agents suspended before this migration: not recorded);
 * - partial indexes for the open sets they list oldest or newest first: suspended agents, disputes
 *   awaiting a decision, failed webhook subscriptions.
 */
export class AdminReads1764200000000 implements MigrationInterface {
  name = 'AdminReads1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "agents" ADD "suspended_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`CREATE OR REPLACE FUNCTION agents_suspended_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'suspended' AND OLD.status IS DISTINCT FROM 'suspended' THEN
          NEW.suspended_at := now();
        ELSIF NEW.status <> 'suspended' THEN
          NEW.suspended_at := NULL;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER "tr_agents_suspended_at" BEFORE UPDATE OF "status" ON "agents"
      FOR EACH ROW EXECUTE FUNCTION agents_suspended_at()`);
    await q.query(
      `CREATE INDEX "ix_agents_suspended" ON "agents" ("suspended_at" DESC NULLS LAST, "id")
       WHERE "status" = 'suspended'`,
    );
    await q.query(
      `CREATE INDEX "ix_disputes_open_created" ON "disputes" ("created_at", "id") WHERE "status" <> 'resolved'`,
    );
    await q.query(
      `CREATE INDEX "ix_webhook_subscriptions_failed" ON "webhook_subscriptions" ("status_changed_at" DESC, "id")
       WHERE "status" = 'failed'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_webhook_subscriptions_failed"`);
    await q.query(`DROP INDEX "ix_disputes_open_created"`);
    await q.query(`DROP INDEX "ix_agents_suspended"`);
    await q.query(`DROP TRIGGER "tr_agents_suspended_at" ON "agents"`);
    await q.query(`DROP FUNCTION agents_suspended_at()`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "suspended_at"`);
  }
}
