import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `settlement_expired`: a terminal settlement state of an execution whose payment authorization
 * passed its validBefore without ever moving money (resolutions §2). Before, such a settlement was
 * `settlement_failed` and retried hourly for ever; now the payment is `released`, the execution is
 * not charged, its output stays withheld, and its status read says why.
 */
export class SettlementExpired1763980000000 implements MigrationInterface {
  name = 'SettlementExpired1763980000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_settlement"`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_settlement" CHECK ("settlement_status" IS NULL OR "settlement_status" IN ('settlement_pending', 'settled', 'settlement_failed', 'settlement_expired'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE "executions" SET "settlement_status" = 'settlement_failed' WHERE "settlement_status" = 'settlement_expired'`,
    );
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_settlement"`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_settlement" CHECK ("settlement_status" IS NULL OR "settlement_status" IN ('settlement_pending', 'settled', 'settlement_failed'))`,
    );
  }
}
