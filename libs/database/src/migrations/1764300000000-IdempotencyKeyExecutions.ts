import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 53: a keyless retry of a used payment is answered as its execution when it sends the same
 * request, but only for an execution that was started without an idempotency key (a keyed one is
 * replayed by its key): this index answers whether a key stands for an execution.
 */
export class IdempotencyKeyExecutions1764300000000 implements MigrationInterface {
  name = 'IdempotencyKeyExecutions1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_idempotency_keys_execution" ON "idempotency_keys" ("execution_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_idempotency_keys_execution"`);
  }
}
