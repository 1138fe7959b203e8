import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An execution paid with x402 keeps the signed receipt it was answered with (`offer-receipt`), and
 * the paid route it came by (its receipt and 402 name that route's URL as the resource). Both
 * columns are added without a rewrite (a constant default), and the route's check is NOT VALID: new
 * rows are checked, the existing ones (all `execute`, the default) are not scanned under the lock.
 */
export class ExecutionReceipts1764126000000 implements MigrationInterface {
  name = 'ExecutionReceipts1764126000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" ADD "receipt" jsonb`);
    await q.query(`ALTER TABLE "executions" ADD "route" character varying(16) NOT NULL DEFAULT 'execute'`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_route" CHECK ("route" IN ('execute', 'capability')) NOT VALID`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_route"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "route"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "receipt"`);
  }
}
