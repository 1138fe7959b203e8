import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only live agents are listed (issue 32):
 * - `agent_health`: one narrow row per agent (a trigger adds it with the agent, another makes it due
 *   when the agent becomes active again: one not active is not probed), the probe schedule
 *   and claim (`next_probe_at`), the status, the failing streak and the rolled uptimes.
 * - `agent_health_hourly`: per agent and hour, the probes, those answered (ups) and their latency:
 *   the history the uptimes sum and `GET /agents/:id/health` shows, at most 168 rows an agent (pruned).
 * - `agents.inactive_reason`: why the platform set an agent inactive (its health), cleared when the owner reactivates it.
 *
 * Locks: the first statement takes `agents`' ACCESS EXCLUSIVE lock (the column is metadata only), held
 * to the commit, so the trigger and the backfill cannot miss an agent and no lock is upgraded later. A
 * lock_timeout makes the migration fail (and be retried) rather than queue every read of `agents`
 * behind a long transaction while it waits for that lock.
 */
export class AgentHealth1764100000000 implements MigrationInterface {
  name = 'AgentHealth1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '5s'`);
    await q.query(`ALTER TABLE "agents" ADD "inactive_reason" character varying(500)`);
    await q.query(`CREATE TABLE "agent_health" (
      "agent_id" uuid NOT NULL,
      "next_probe_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "status" character varying(8) NOT NULL DEFAULT 'unknown',
      "failures" integer NOT NULL DEFAULT '0',
      "failing_since" TIMESTAMP WITH TIME ZONE,
      "checked_at" TIMESTAMP WITH TIME ZONE,
      "last_latency_ms" integer,
      "last_status_code" integer,
      "last_error" character varying(200),
      "uptime_24h" double precision,
      "uptime_7d" double precision,
      CONSTRAINT "ck_agent_health_status" CHECK ("status" IN ('up', 'down', 'unknown')),
      CONSTRAINT "pk_agent_health" PRIMARY KEY ("agent_id"),
      CONSTRAINT "fk_agent_health_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX "ix_agent_health_due" ON "agent_health" ("next_probe_at")`);
    await q.query(`CREATE TABLE "agent_health_hourly" (
      "agent_id" uuid NOT NULL,
      "hour" TIMESTAMP WITH TIME ZONE NOT NULL,
      "probes" integer NOT NULL,
      "ups" integer NOT NULL,
      "latency_ms_sum" bigint NOT NULL,
      "latency_count" integer NOT NULL,
      CONSTRAINT "pk_agent_health_hourly" PRIMARY KEY ("agent_id", "hour"),
      CONSTRAINT "fk_agent_health_hourly_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX "ix_agent_health_hourly_hour" ON "agent_health_hourly" ("hour")`);
    await q.query(`CREATE FUNCTION agents_health_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO agent_health (agent_id) VALUES (NEW.id) ON CONFLICT (agent_id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER tr_agents_health AFTER INSERT ON agents FOR EACH ROW EXECUTE FUNCTION agents_health_row()`,
    );
    // An agent that is not active is not probed (its next probe is 'infinity'); active again, it is due.
    await q.query(`CREATE FUNCTION agents_health_due() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE agent_health SET next_probe_at = least(next_probe_at, now()) WHERE agent_id = NEW.id;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER tr_agents_health_due AFTER UPDATE OF status ON agents FOR EACH ROW
      WHEN (NEW.status = 'active' AND OLD.status IS DISTINCT FROM 'active') EXECUTE FUNCTION agents_health_due()`);
    await q.query(`INSERT INTO agent_health (agent_id) SELECT id FROM agents`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '5s'`);
    await q.query(`DROP TRIGGER tr_agents_health_due ON agents`);
    await q.query(`DROP FUNCTION agents_health_due()`);
    await q.query(`DROP TRIGGER tr_agents_health ON agents`);
    await q.query(`DROP FUNCTION agents_health_row()`);
    await q.query(`DROP TABLE "agent_health_hourly"`);
    await q.query(`DROP TABLE "agent_health"`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "inactive_reason"`);
  }
}
