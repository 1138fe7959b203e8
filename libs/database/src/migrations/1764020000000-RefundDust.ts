import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds the chain would pay for more than they are worth, and refunds that must not be stranded
 * (resolutions §6; issue 28, item 5):
 * - `held`: a refund below the dust floor (REFUND_DUST_MICRO) waits, owed to the payer in its
 *   refund_payable as before, until the payer's next refund above the floor carries it
 *   (`carried_by`, that refund's id); the carrier sends `payout_amount` (its own amount plus what it
 *   carries) in one transfer, and completing it completes what it carried.
 * - `retry_at`: a refund whose transfer reverted (or could not be signed) is `failed` with the time
 *   the worker sends it again (backoff); an admin can re-drive it at once.
 */
export class RefundDust1764020000000 implements MigrationInterface {
  name = 'RefundDust1764020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "refunds" DROP CONSTRAINT "ck_refunds_status"`);
    await q.query(
      `ALTER TABLE "refunds" ADD CONSTRAINT "ck_refunds_status" CHECK ("status" IN ('held', 'pending', 'processing', 'completed', 'failed'))`,
    );
    await q.query(`ALTER TABLE "refunds" ADD "carried_by" character varying(40)`);
    await q.query(`ALTER TABLE "refunds" ADD "payout_amount" bigint`);
    await q.query(`ALTER TABLE "refunds" ADD "retry_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `CREATE INDEX "ix_refunds_held_wallet" ON "refunds" ("wallet") WHERE "status" = 'held' AND "carried_by" IS NULL`,
    );
    await q.query(`CREATE INDEX "ix_refunds_carried_by" ON "refunds" ("carried_by") WHERE "carried_by" IS NOT NULL`);
    await q.query(`CREATE INDEX "ix_refunds_failed_retry" ON "refunds" ("retry_at") WHERE "status" = 'failed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_refunds_failed_retry"`);
    await q.query(`DROP INDEX "ix_refunds_carried_by"`);
    await q.query(`DROP INDEX "ix_refunds_held_wallet"`);
    await q.query(`ALTER TABLE "refunds" DROP COLUMN "retry_at"`);
    await q.query(`ALTER TABLE "refunds" DROP COLUMN "payout_amount"`);
    await q.query(`ALTER TABLE "refunds" DROP COLUMN "carried_by"`);
    await q.query(`UPDATE refunds SET status = 'pending' WHERE status = 'held'`);
    await q.query(`ALTER TABLE "refunds" DROP CONSTRAINT "ck_refunds_status"`);
    await q.query(
      `ALTER TABLE "refunds" ADD CONSTRAINT "ck_refunds_status" CHECK ("status" IN ('pending', 'processing', 'completed', 'failed'))`,
    );
  }
}
