import { MigrationInterface, QueryRunner } from 'typeorm';

/** Variable pricing: the pricing an execution was paid under, and refunds of the unused part. */
export class VariablePricing1763870000000 implements MigrationInterface {
  name = 'VariablePricing1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "refunds" ("id" character varying(40) NOT NULL, "wallet" character varying(42) NOT NULL, "amount" bigint NOT NULL, "reason" character varying(32) NOT NULL, "execution_id" character varying(40), "transaction_id" character varying(40), "status" character varying(16) NOT NULL DEFAULT 'pending', "tx_hash" character varying(66), "signed_tx" text, "attempts" integer NOT NULL DEFAULT '0', "locked_until" TIMESTAMP WITH TIME ZONE, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_refunds_amount" CHECK ("amount" > 0), CONSTRAINT "ck_refunds_status" CHECK ("status" IN ('pending', 'processing', 'completed', 'failed')), CONSTRAINT "pk_refunds" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "ux_refunds_execution" ON "refunds" ("execution_id")`);
    await q.query(`CREATE INDEX "ix_refunds_status_created" ON "refunds" ("status", "created_at")`);
    await q.query(`ALTER TABLE "executions" ADD "pricing_model" character varying(16) NOT NULL DEFAULT 'per-request'`);
    await q.query(`ALTER TABLE "executions" ADD "unit_price" bigint NOT NULL DEFAULT '0'`);
    // Existing executions were all per-request: the payment covered exactly the agent fee.
    await q.query(`ALTER TABLE "executions" ADD "authorized_agent_fee" bigint`);
    await q.query(`UPDATE "executions" SET "authorized_agent_fee" = "agent_fee", "unit_price" = "agent_fee"`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "authorized_agent_fee" SET NOT NULL`);
    await q.query(`ALTER TABLE "executions" ADD "usage_tokens" integer`);
    await q.query(`ALTER TABLE "executions" ADD "refund_id" character varying(40)`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_fees" CHECK ("agent_fee" >= 0 AND "agent_fee" <= "authorized_agent_fee")`,
    );
    // basePrice is a unit price for per-token / per-minute, so a cap below it is legitimate.
    await q.query(`ALTER TABLE "agent_capabilities" DROP CONSTRAINT "ck_agent_capabilities_max_price"`);
    await q.query(
      `ALTER TABLE "agent_capabilities" ADD CONSTRAINT "ck_agent_capabilities_max_price" CHECK ("max_price" IS NULL OR "max_price" > 0)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "agent_capabilities" DROP CONSTRAINT "ck_agent_capabilities_max_price"`);
    await q.query(
      `ALTER TABLE "agent_capabilities" ADD CONSTRAINT "ck_agent_capabilities_max_price" CHECK ("max_price" IS NULL OR "max_price" >= "base_price")`,
    );
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_fees"`);
    for (const column of ['refund_id', 'usage_tokens', 'authorized_agent_fee', 'unit_price', 'pricing_model'])
      await q.query(`ALTER TABLE "executions" DROP COLUMN "${column}"`);
    await q.query(`DROP INDEX "public"."ix_refunds_status_created"`);
    await q.query(`DROP INDEX "public"."ux_refunds_execution"`);
    await q.query(`DROP TABLE "refunds"`);
  }
}
