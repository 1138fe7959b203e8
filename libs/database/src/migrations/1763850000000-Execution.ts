import { MigrationInterface, QueryRunner } from 'typeorm';

/** Executions and their idempotency keys. */
export class Execution1763850000000 implements MigrationInterface {
  name = 'Execution1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "executions" ("id" character varying(40) NOT NULL, "agent_id" uuid NOT NULL, "capability_id" character varying(100) NOT NULL, "payer" character varying(42) NOT NULL, "input" jsonb NOT NULL, "output" jsonb, "status" character varying(16) NOT NULL DEFAULT 'pending', "settlement_status" character varying(24), "agent_error" text, "execution_time_ms" integer, "retry_count" integer NOT NULL DEFAULT '0', "agent_fee" bigint NOT NULL, "platform_fee" bigint NOT NULL, "payment_id" character varying(40) NOT NULL, "transaction_id" character varying(40), "header_hash" character varying(64) NOT NULL, "is_async" boolean NOT NULL DEFAULT false, "callback_url" character varying(2048), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "locked_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_executions_settlement" CHECK ("settlement_status" IS NULL OR "settlement_status" IN ('settlement_pending', 'settled', 'settlement_failed')), CONSTRAINT "ck_executions_status" CHECK ("status" IN ('pending', 'completed', 'failed', 'timeout', 'refunded')), CONSTRAINT "pk_executions" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "ux_executions_payment" ON "executions" ("payment_id")`);
    await q.query(`CREATE INDEX "ix_executions_status_next" ON "executions" ("status", "next_attempt_at")`);
    await q.query(`CREATE INDEX "ix_executions_agent_created" ON "executions" ("agent_id", "created_at")`);
    await q.query(
      `CREATE TABLE "idempotency_keys" ("payer" character varying(42) NOT NULL, "key" character varying(255) NOT NULL, "fingerprint" character varying(64) NOT NULL, "execution_id" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_idempotency_keys" PRIMARY KEY ("payer", "key"))`,
    );
    await q.query(`CREATE INDEX "ix_idempotency_keys_expires" ON "idempotency_keys" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "idempotency_keys"`);
    await q.query(`DROP TABLE "executions"`);
  }
}
