import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the console's signed-in views read:
 * - `webhook_deliveries.response_body`: what a receiver answered to each attempt (its first 2 KB),
 *   shown with the body sent in the delivery log. A nullable column: no table rewrite.
 * - `ix_disputes_client`: a paying wallet's disputes, newest first (GET /payers/{wallet}/disputes),
 *   built CONCURRENTLY (so the migration runs outside a transaction).
 */
export class ConsoleViews1764190000000 implements MigrationInterface {
  name = 'ConsoleViews1764190000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" ADD COLUMN IF NOT EXISTS "response_body" text`);
    // A build that failed half-way leaves an invalid index: start afresh.
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_disputes_client"`);
    await q.query(
      `CREATE INDEX CONCURRENTLY "ix_disputes_client" ON "disputes" ("client_wallet", "created_at" DESC, "id" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "ix_disputes_client"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "response_body"`);
  }
}
