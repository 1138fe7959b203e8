import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions and delivery attempts (one row per attempt, for events and execution
 * callbacks), and the outbox notification that relays events after commit. Callbacks still
 * pending in the old executions columns move over as delivery rows.
 */
export class Webhooks1763880000000 implements MigrationInterface {
  name = 'Webhooks1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "webhook_subscriptions" ("id" character varying(40) NOT NULL, "agent_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "secret" character varying(256), "status" character varying(16) NOT NULL DEFAULT 'active', "failure_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "status_changed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_webhook_subscriptions_status" CHECK ("status" IN ('active', 'failed', 'deleted')), CONSTRAINT "pk_webhook_subscriptions" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "ix_webhook_subscriptions_agent_status" ON "webhook_subscriptions" ("agent_id", "status")`,
    );
    await q.query(
      `CREATE TABLE "webhook_deliveries" ("id" character varying(40) NOT NULL, "kind" character varying(16) NOT NULL, "subscription_id" character varying(40), "event_id" character varying(40), "event_type" character varying(64), "execution_id" character varying(40), "url" character varying(2048) NOT NULL, "body" text NOT NULL, "attempt" integer NOT NULL, "manual" boolean NOT NULL DEFAULT false, "status" character varying(16) NOT NULL DEFAULT 'pending', "scheduled_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "attempted_at" TIMESTAMP WITH TIME ZONE, "response_status" integer, "duration_ms" integer, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_webhook_deliveries_target" CHECK (("kind" = 'webhook' AND "subscription_id" IS NOT NULL AND "event_id" IS NOT NULL) OR ("kind" = 'callback' AND "execution_id" IS NOT NULL)), CONSTRAINT "ck_webhook_deliveries_status" CHECK ("status" IN ('pending', 'sending', 'succeeded', 'failed', 'cancelled')), CONSTRAINT "ck_webhook_deliveries_kind" CHECK ("kind" IN ('webhook', 'callback')), CONSTRAINT "pk_webhook_deliveries" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "ix_webhook_deliveries_subscription_created" ON "webhook_deliveries" ("subscription_id", "created_at")`,
    );
    await q.query(
      `CREATE INDEX "ix_webhook_deliveries_status_scheduled" ON "webhook_deliveries" ("status", "scheduled_at")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "ux_webhook_deliveries_callback_attempt" ON "webhook_deliveries" ("execution_id", "attempt") WHERE "kind" = 'callback'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "ux_webhook_deliveries_webhook_attempt" ON "webhook_deliveries" ("subscription_id", "event_id", "attempt") WHERE "kind" = 'webhook' AND NOT "manual"`,
    );
    await q.query(
      `INSERT INTO "webhook_deliveries" ("id", "kind", "execution_id", "url", "body", "attempt", "status", "scheduled_at")
       SELECT 'dlv_' || substr(md5(random()::text || e.id), 1, 16), 'callback', e.id, e.callback_url,
              jsonb_strip_nulls(jsonb_build_object('requestId', e.id, 'status', e.status,
                'output', CASE WHEN e.status = 'completed' AND e.settlement_status = 'settled' THEN e.output END, 'error', e.agent_error))::text,
              e.callback_attempts + 1, 'pending', coalesce(e.callback_next_at, now())
         FROM "executions" e WHERE e.callback_status = 'pending' AND e.callback_url IS NOT NULL`,
    );
    await q.query(`DROP INDEX "public"."ix_executions_callback_due"`);
    await q.query(`ALTER TABLE "executions" DROP CONSTRAINT "ck_executions_callback"`);
    for (const column of ['callback_attempts', 'callback_next_at', 'callback_status'])
      await q.query(`ALTER TABLE "executions" DROP COLUMN "${column}"`);
    // Postgres delivers a NOTIFY only when the inserting transaction commits: the relay's "after commit".
    await q.query(
      `CREATE FUNCTION agora_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('agora_outbox', NEW.id); RETURN NEW; END $$`,
    );
    await q.query(
      `CREATE TRIGGER trg_outbox_events_notify AFTER INSERT ON "outbox_events" FOR EACH ROW EXECUTE FUNCTION agora_outbox_notify()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER trg_outbox_events_notify ON "outbox_events"`);
    await q.query(`DROP FUNCTION agora_outbox_notify()`);
    await q.query(`ALTER TABLE "executions" ADD "callback_status" character varying(16)`);
    await q.query(`ALTER TABLE "executions" ADD "callback_next_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "executions" ADD "callback_attempts" integer NOT NULL DEFAULT '0'`);
    await q.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "ck_executions_callback" CHECK ("callback_status" IS NULL OR "callback_status" IN ('pending', 'delivered', 'failed'))`,
    );
    await q.query(`CREATE INDEX "ix_executions_callback_due" ON "executions" ("callback_status", "callback_next_at")`);
    await q.query(`DROP TABLE "webhook_deliveries"`);
    await q.query(`DROP TABLE "webhook_subscriptions"`);
  }
}
