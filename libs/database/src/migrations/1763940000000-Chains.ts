import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Execution chains (resolutions §5): a chain per root execution with its budget and limits, a
 * node per execution inside it (the trace tree, each node's reservation and cost), and the
 * executions a chain pays for (no x402 payment of their own: `chain_id` instead of `payment_id`).
 * The budget's money lives in the ledger (`chain:<id>:budget`, `chain:<id>:inflight`);
 * `running` counts nodes not yet ended, so the chain ends when the root has ended and it is 0.
 */
export class Chains1763940000000 implements MigrationInterface {
  name = 'Chains1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "chains" (
      "id" uuid NOT NULL,
      "root_execution_id" varchar(40) NOT NULL,
      "root_agent_id" uuid NOT NULL,
      "root_wallet" varchar(42) NOT NULL,
      "payment_id" varchar(40) NOT NULL,
      "budget" bigint NOT NULL,
      "max_depth" integer NOT NULL,
      "status" varchar(16) NOT NULL DEFAULT 'pending',
      "root_ended" boolean NOT NULL DEFAULT false,
      "running" integer NOT NULL DEFAULT 0,
      "trace_id" char(32) NOT NULL,
      "started_at" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz NOT NULL,
      "completed_at" timestamptz,
      "refund_id" varchar(40),
      "refunded" bigint,
      CONSTRAINT "pk_chains" PRIMARY KEY ("id"),
      CONSTRAINT "ux_chains_root_execution" UNIQUE ("root_execution_id"),
      CONSTRAINT "ck_chains_budget" CHECK ("budget" BETWEEN 10000 AND 1000000000),
      CONSTRAINT "ck_chains_max_depth" CHECK ("max_depth" BETWEEN 0 AND 5),
      CONSTRAINT "ck_chains_running" CHECK ("running" >= 0),
      CONSTRAINT "ck_chains_status" CHECK ("status" IN ('pending', 'running', 'completed', 'failed', 'partial')))`);
    await q.query(`CREATE INDEX "ix_chains_open" ON "chains" ("expires_at") WHERE "status" IN ('pending', 'running')`);
    await q.query(`CREATE TABLE "chain_nodes" (
      "execution_id" varchar(40) NOT NULL,
      "chain_id" uuid NOT NULL,
      "parent_execution_id" varchar(40),
      "agent_id" uuid NOT NULL,
      "capability_id" varchar(100) NOT NULL,
      "depth" integer NOT NULL,
      "span_id" char(16) NOT NULL,
      "reserved" bigint NOT NULL,
      "cost" bigint,
      "status" varchar(16) NOT NULL DEFAULT 'running',
      "transaction_id" varchar(40),
      "execution_time_ms" integer,
      "started_at" timestamptz NOT NULL DEFAULT now(),
      "completed_at" timestamptz,
      CONSTRAINT "pk_chain_nodes" PRIMARY KEY ("execution_id"),
      CONSTRAINT "fk_chain_nodes_chain" FOREIGN KEY ("chain_id") REFERENCES "chains" ("id"),
      CONSTRAINT "ck_chain_nodes_depth" CHECK ("depth" BETWEEN 0 AND 5),
      CONSTRAINT "ck_chain_nodes_amounts" CHECK ("reserved" >= 0 AND ("cost" IS NULL OR "cost" BETWEEN 0 AND "reserved")),
      CONSTRAINT "ck_chain_nodes_status" CHECK ("status" IN ('running', 'completed', 'refunded')))`);
    await q.query(`CREATE INDEX "ix_chain_nodes_chain" ON "chain_nodes" ("chain_id", "started_at")`);
    await q.query(`ALTER TABLE "executions" ADD "chain_id" uuid`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "payment_id" DROP NOT NULL`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "header_hash" DROP NOT NULL`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_funding" CHECK ("payment_id" IS NOT NULL OR ("chain_id" IS NOT NULL AND "header_hash" IS NULL))`,
    );
    // Execute targets now carry the agent's chain settings: a change to them must reach the api's cached targets too.
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.reputation_score IS DISTINCT FROM NEW.reputation_score OR OLD.chain_settings IS DISTINCT FROM NEW.chain_settings)
      EXECUTE FUNCTION agents_config_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.reputation_score IS DISTINCT FROM NEW.reputation_score)
      EXECUTE FUNCTION agents_config_changed()`);
    await q.query(`DELETE FROM "executions" WHERE "payment_id" IS NULL`);
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_funding"`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "header_hash" SET NOT NULL`);
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "payment_id" SET NOT NULL`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN "chain_id"`);
    await q.query(`DROP TABLE "chain_nodes"`);
    await q.query(`DROP TABLE "chains"`);
  }
}
