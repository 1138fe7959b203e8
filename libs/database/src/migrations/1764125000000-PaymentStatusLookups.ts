import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public payment status (`GET /payments/status/:ref`) finds payments by their settlement
 * transaction's hash (only payments that have one are indexed: a reservation writes none) and, for
 * one payer, by their authorization's nonce: an index each, so a public read never scans the table.
 * (A payment identifier is an idempotency key, found by its primary key, payer and key.) On a large
 * `payments` table, build them first with `CREATE INDEX CONCURRENTLY` (same names and columns): this
 * migration then finds them and does not lock the table's writes while building.
 */
export class PaymentStatusLookups1764125000000 implements MigrationInterface {
  name = 'PaymentStatusLookups1764125000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS "ix_payments_tx_hash" ON "payments" ("tx_hash") WHERE "tx_hash" IS NOT NULL`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS "ix_payments_nonce" ON "payments" ("nonce")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_payments_nonce"`);
    await q.query(`DROP INDEX "ix_payments_tx_hash"`);
  }
}
