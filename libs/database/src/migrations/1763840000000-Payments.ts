import { MigrationInterface, QueryRunner } from 'typeorm';

/** Payments: x402 authorizations, charged transactions, escrow holds, withdrawals, and the event outbox. */
export class Payments1763840000000 implements MigrationInterface {
  name = 'Payments1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "outbox_events" ("id" character varying(40) NOT NULL, "type" character varying(64) NOT NULL, "agent_id" uuid, "data" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_outbox_events" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "ix_outbox_events_agent" ON "outbox_events" ("agent_id", "created_at")`);
    await q.query(`CREATE INDEX "ix_outbox_events_unpublished" ON "outbox_events" ("published_at", "created_at")`);
    await q.query(
      `CREATE TABLE "payments" ("id" character varying(40) NOT NULL, "x402_version" integer NOT NULL, "network" character varying(32) NOT NULL, "chain_id" integer NOT NULL, "asset" character varying(42) NOT NULL, "payer" character varying(42) NOT NULL, "pay_to" character varying(42) NOT NULL, "nonce" character varying(66) NOT NULL, "value" bigint NOT NULL, "valid_after" bigint NOT NULL, "valid_before" bigint NOT NULL, "signature" text NOT NULL, "header_hash" character varying(64) NOT NULL, "purpose" character varying(16) NOT NULL, "ref_id" character varying(100), "status" character varying(20) NOT NULL DEFAULT 'reserved', "tx_hash" character varying(66), "settle_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "settled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_payments_value" CHECK ("value" > 0), CONSTRAINT "ck_payments_purpose" CHECK ("purpose" IN ('registration', 'execution')), CONSTRAINT "ck_payments_status" CHECK ("status" IN ('reserved', 'settled', 'settlement_failed', 'released')), CONSTRAINT "pk_payments" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "ix_payments_status_next" ON "payments" ("status", "next_attempt_at")`);
    await q.query(
      `CREATE UNIQUE INDEX "ux_payments_authorization" ON "payments" ("chain_id", "asset", "payer", "nonce")`,
    );
    await q.query(
      `CREATE TABLE "transactions" ("id" character varying(40) NOT NULL, "requesting_agent" character varying(64) NOT NULL, "payer_wallet" character varying(42) NOT NULL, "providing_agent_id" uuid NOT NULL, "capability_id" character varying(100) NOT NULL, "gross_amount" bigint NOT NULL, "platform_fee" bigint NOT NULL, "agent_fee" bigint NOT NULL, "platform_cut" bigint NOT NULL, "agent_earnings" bigint NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'completed', "execution_time_ms" integer NOT NULL DEFAULT '0', "payment_id" character varying(40), "escrow_id" character varying(40), "dispute_id" character varying(40), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_transactions_split" CHECK ("platform_cut" + "agent_earnings" = "agent_fee" AND "gross_amount" = "platform_fee" + "agent_fee"), CONSTRAINT "ck_transactions_status" CHECK ("status" IN ('completed', 'disputed', 'refunded')), CONSTRAINT "pk_transactions" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "ix_transactions_payer" ON "transactions" ("payer_wallet")`);
    await q.query(
      `CREATE INDEX "ix_transactions_agent_created" ON "transactions" ("providing_agent_id", "created_at")`,
    );
    await q.query(`CREATE UNIQUE INDEX "ux_transactions_payment" ON "transactions" ("payment_id")`);
    await q.query(
      `CREATE TABLE "escrow_holds" ("id" character varying(40) NOT NULL, "transaction_id" character varying(40) NOT NULL, "agent_id" uuid NOT NULL, "amount" bigint NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'held', "release_at" TIMESTAMP WITH TIME ZONE NOT NULL, "released_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_escrow_holds_amount" CHECK ("amount" >= 0), CONSTRAINT "ck_escrow_holds_status" CHECK ("status" IN ('held', 'released', 'frozen', 'refunded', 'split')), CONSTRAINT "pk_escrow_holds" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "ix_escrow_holds_agent" ON "escrow_holds" ("agent_id")`);
    await q.query(`CREATE INDEX "ix_escrow_holds_status_release" ON "escrow_holds" ("status", "release_at")`);
    await q.query(`CREATE UNIQUE INDEX "ux_escrow_holds_transaction" ON "escrow_holds" ("transaction_id")`);
    await q.query(
      `CREATE TABLE "withdrawals" ("id" character varying(40) NOT NULL, "agent_id" uuid NOT NULL, "amount" bigint NOT NULL, "fee" bigint NOT NULL, "net_amount" bigint NOT NULL, "destination_wallet" character varying(42) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "tx_hash" character varying(66), "signed_tx" text, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "locked_until" TIMESTAMP WITH TIME ZONE, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_withdrawals_amounts" CHECK ("amount" >= 1000000 AND "fee" >= 0 AND "net_amount" = "amount" - "fee"), CONSTRAINT "ck_withdrawals_status" CHECK ("status" IN ('pending', 'processing', 'completed', 'failed')), CONSTRAINT "pk_withdrawals" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "ix_withdrawals_status_next" ON "withdrawals" ("status", "next_attempt_at")`);
    await q.query(`CREATE INDEX "ix_withdrawals_agent_created" ON "withdrawals" ("agent_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['withdrawals', 'escrow_holds', 'transactions', 'payments', 'outbox_events'])
      await q.query(`DROP TABLE "${table}"`);
  }
}
