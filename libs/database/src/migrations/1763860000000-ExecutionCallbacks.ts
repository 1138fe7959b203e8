import { MigrationInterface, QueryRunner } from 'typeorm';

/** Delivery state of execution callbacks (kept in Postgres so a Redis loss cannot drop one). */
export class ExecutionCallbacks1763860000000 implements MigrationInterface {
  name = 'ExecutionCallbacks1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" ADD "callback_status" character varying(16)`);
    await q.query(`ALTER TABLE "executions" ADD "callback_attempts" integer NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "executions" ADD "callback_next_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`CREATE INDEX "ix_executions_callback_due" ON "executions" ("callback_status", "callback_next_at")`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_callback" CHECK ("callback_status" IS NULL OR "callback_status" IN ('pending', 'delivered', 'failed'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_callback"`);
    await q.query(`DROP INDEX "ix_executions_callback_due"`);
    for (const column of ['callback_next_at', 'callback_attempts', 'callback_status'])
      await q.query(`ALTER TABLE "executions" DROP COLUMN "${column}"`);
  }
}
