import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763820000000 implements MigrationInterface {
  name = 'Initial1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await q.query(`CREATE TABLE "agents" (
      "id" uuid NOT NULL,
      "wallet" character varying(42) NOT NULL,
      "name" character varying(100) NOT NULL,
      "description" character varying(1000),
      "endpoints" jsonb NOT NULL,
      "metadata" jsonb NOT NULL DEFAULT '{}'::jsonb,
      "reputation_score" integer NOT NULL DEFAULT '50',
      "status" character varying(16) NOT NULL DEFAULT 'active',
      "chain_settings" jsonb NOT NULL,
      "execution_count" integer NOT NULL DEFAULT '0',
      "suspended_reason" character varying(500),
      "search_text" text NOT NULL DEFAULT '',
      "search_vector" tsvector,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "ck_agents_status" CHECK ("status" IN ('active', 'inactive', 'suspended')),
      CONSTRAINT "ck_agents_reputation_range" CHECK ("reputation_score" BETWEEN 0 AND 100),
      CONSTRAINT "pk_agents" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_agents_status_reputation" ON "agents" ("status", "reputation_score")`);
    await q.query(`CREATE INDEX "ix_agents_wallet" ON "agents" ("wallet")`);
    await q.query(`CREATE INDEX "ix_agents_search_vector" ON "agents" USING gin ("search_vector")`);
    await q.query(`CREATE INDEX "ix_agents_search_text_trgm" ON "agents" USING gin ("search_text" gin_trgm_ops)`);

    await q.query(`CREATE TABLE "agent_capabilities" (
      "agent_id" uuid NOT NULL,
      "capability_id" character varying(100) NOT NULL,
      "position" integer NOT NULL,
      "name" character varying(100) NOT NULL,
      "description" character varying(1000) NOT NULL,
      "input_schema" jsonb,
      "output_schema" jsonb,
      "pricing_model" character varying(16) NOT NULL,
      "base_price" bigint NOT NULL,
      "max_price" bigint,
      "currency" character varying(8) NOT NULL,
      CONSTRAINT "ck_agent_capabilities_max_price" CHECK ("max_price" IS NULL OR "max_price" >= "base_price"),
      CONSTRAINT "ck_agent_capabilities_base_price" CHECK ("base_price" >= 0),
      CONSTRAINT "ck_agent_capabilities_currency" CHECK ("currency" IN ('USDC', 'USDT', 'DAI')),
      CONSTRAINT "ck_agent_capabilities_pricing_model" CHECK ("pricing_model" IN ('per-request', 'per-token', 'per-minute', 'dynamic')),
      CONSTRAINT "pk_agent_capabilities" PRIMARY KEY ("agent_id", "capability_id"))`);
    await q.query(`CREATE INDEX "ix_agent_capabilities_base_price" ON "agent_capabilities" ("base_price")`);
    await q.query(
      `CREATE INDEX "ix_agent_capabilities_name_trgm" ON "agent_capabilities" USING gin ("name" gin_trgm_ops)`,
    );
    await q.query(`ALTER TABLE "agent_capabilities" ADD CONSTRAINT "fk_agent_capabilities_agent"
      FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);

    await q.query(`CREATE TABLE "used_auth_messages" (
      "message_key" character varying(200) NOT NULL,
      "agent_id" uuid NOT NULL,
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "pk_used_auth_messages" PRIMARY KEY ("message_key"))`);
    await q.query(`CREATE INDEX "ix_used_auth_messages_expires_at" ON "used_auth_messages" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "used_auth_messages"`);
    await q.query(`DROP TABLE "agent_capabilities"`);
    await q.query(`DROP TABLE "agents"`);
  }
}
