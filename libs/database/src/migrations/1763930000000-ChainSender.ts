import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The on-chain sender: a nonce sequence per hot wallet (taken in the transaction that persists
 * the signed transaction), every signed transaction before it is broadcast, and the fence of
 * payouts (a claim token checked when persisting and completing; the transaction that pays).
 */
export class ChainSender1763930000000 implements MigrationInterface {
  name = 'ChainSender1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "chain_nonces" (
      "wallet" varchar(42) NOT NULL,
      "next_nonce" bigint NOT NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_chain_nonces" PRIMARY KEY ("wallet"),
      CONSTRAINT "ck_chain_nonces_next" CHECK ("next_nonce" >= 0))`);
    await q.query(`CREATE TABLE "chain_txs" (
      "id" varchar(40) NOT NULL,
      "wallet" varchar(42) NOT NULL,
      "nonce" bigint NOT NULL,
      "kind" varchar(16) NOT NULL,
      "items" integer NOT NULL DEFAULT 1,
      "tx_hash" varchar(66) NOT NULL,
      "signed_tx" text NOT NULL,
      "status" varchar(16) NOT NULL DEFAULT 'signed',
      "block_number" bigint,
      "gas_used" bigint,
      "resend_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "finished_at" timestamptz,
      CONSTRAINT "pk_chain_txs" PRIMARY KEY ("id"),
      CONSTRAINT "ck_chain_txs_kind" CHECK ("kind" IN ('settlement', 'transfer')),
      CONSTRAINT "ck_chain_txs_status" CHECK ("status" IN ('signed', 'mined', 'reverted', 'dropped')))`);
    await q.query(`CREATE UNIQUE INDEX "ux_chain_txs_hash" ON "chain_txs" ("tx_hash")`);
    await q.query(`CREATE INDEX "ix_chain_txs_wallet_nonce" ON "chain_txs" ("wallet", "nonce")`);
    await q.query(`CREATE INDEX "ix_chain_txs_open" ON "chain_txs" ("resend_at") WHERE "status" = 'signed'`);
    for (const table of ['withdrawals', 'refunds']) {
      await q.query(`ALTER TABLE "${table}" ADD "claim_token" varchar(36)`);
      await q.query(`ALTER TABLE "${table}" ADD "chain_tx_id" varchar(40)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['withdrawals', 'refunds']) {
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "chain_tx_id"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "claim_token"`);
    }
    await q.query(`DROP TABLE "chain_txs"`);
    await q.query(`DROP TABLE "chain_nonces"`);
  }
}
