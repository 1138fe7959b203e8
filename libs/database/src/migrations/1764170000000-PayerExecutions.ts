import { MigrationInterface, QueryRunner } from 'typeorm';

/** A paying wallet's executions, newest first (GET /payers/{wallet}/executions): built CONCURRENTLY. */
export class PayerExecutions1764170000000 implements MigrationInterface {
  name = 'PayerExecutions1764170000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    // A build that failed half-way leaves an invalid index: start afresh.
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_executions_payer"`);
    await q.query(
      `CREATE INDEX CONCURRENTLY "ix_executions_payer" ON "executions" (lower("payer"), "created_at" DESC, "id" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "ix_executions_payer"`);
  }
}
