import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment whose settlement call has gone out is `settling` (recorded before the call, with a
 * lease in next_attempt_at): it is never released, and once its lease runs out the sweeper asks
 * the chain what happened and finishes it exactly once.
 */
export class PaymentSettling1763920000000 implements MigrationInterface {
  name = 'PaymentSettling1763920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "ck_payments_status"`);
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "ck_payments_status" CHECK ("status" IN ('reserved', 'settling', 'settled', 'settlement_failed', 'released'))`,
    );
    // Settled but not yet linked to what it paid for: a charge that did not happen (sweeper).
    await q.query(
      `CREATE INDEX "ix_payments_settled_unbound" ON "payments" ("settled_at") WHERE "status" = 'settled' AND "ref_id" IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_payments_settled_unbound"`);
    await q.query(`UPDATE "payments" SET "status" = 'settlement_failed' WHERE "status" = 'settling'`);
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "ck_payments_status"`);
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "ck_payments_status" CHECK ("status" IN ('reserved', 'settled', 'settlement_failed', 'released'))`,
    );
  }
}
