import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bounded storage of execution payloads (issue 29, item 2):
 * - `executions.input` may be NULL: the worker prunes the input and output of executions older than
 *   EXECUTION_PAYLOAD_RETENTION_DAYS (`payload_pruned_at`), keeping the SHA-256 of each one's
 *   canonical JSON (`input_sha256`, `output_sha256`) for dispute evidence. The partial index lists
 *   the executions that still hold a payload, oldest first, for the prune.
 * - A callback of a completed execution stores no body (`body` NULL): it is built from the
 *   execution's output when sent, so the output is stored once.
 */
export class PayloadRetention1764032000000 implements MigrationInterface {
  name = 'PayloadRetention1764032000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "input" DROP NOT NULL`);
    await q.query(`ALTER TABLE "executions" ADD "input_sha256" character varying(64)`);
    await q.query(`ALTER TABLE "executions" ADD "output_sha256" character varying(64)`);
    await q.query(`ALTER TABLE "executions" ADD "payload_pruned_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `CREATE INDEX "ix_executions_payload_kept" ON "executions" ("created_at") WHERE "payload_pruned_at" IS NULL`,
    );
    await q.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "body" DROP NOT NULL`);
    await q.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "ck_webhook_deliveries_body" CHECK ("body" IS NOT NULL OR "kind" = 'callback')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "ck_webhook_deliveries_body"`);
    await q.query(
      `UPDATE webhook_deliveries d SET body = json_build_object('requestId', d.execution_id, 'status', 'completed', 'output', e.output)::text
         FROM executions e WHERE d.body IS NULL AND e.id = d.execution_id`,
    );
    await q.query(
      `UPDATE webhook_deliveries SET body = json_build_object('requestId', execution_id, 'status', 'completed', 'output', NULL)::text WHERE body IS NULL`,
    );
    await q.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "body" SET NOT NULL`);
    await q.query(`DROP INDEX "ix_executions_payload_kept"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "payload_pruned_at"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "output_sha256"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "input_sha256"`);
    await q.query(`UPDATE executions SET input = '{}'::jsonb WHERE input IS NULL`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "input" SET NOT NULL`);
  }
}
