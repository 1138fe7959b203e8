import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public payment status (`GET /payments/status/:ref`) finds payments by their settlement
 * transaction's hash, by their authorization's nonce (any payer) and by payment identifier (an
 * idempotency key, any payer): one index each, so a public read never scans the table.
 */
export class PaymentStatusLookups1764125000000 implements MigrationInterface {
  name = 'PaymentStatusLookups1764125000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "ix_payments_tx_hash" ON "payments" ("tx_hash")`);
    await q.query(`CREATE INDEX "ix_payments_nonce" ON "payments" ("nonce")`);
    await q.query(`CREATE INDEX "ix_idempotency_keys_key" ON "idempotency_keys" ("key")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_idempotency_keys_key"`);
    await q.query(`DROP INDEX "ix_payments_nonce"`);
    await q.query(`DROP INDEX "ix_payments_tx_hash"`);
  }
}
