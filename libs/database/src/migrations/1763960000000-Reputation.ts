import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reputation and the statistics read at scale.
 *
 * - `reputation_events`: one row per change of an agent's score (type, the delta applied after the
 *   0-100 clamp, the score after it, the id of what caused it), written by `reputation_apply` in the
 *   transaction of the outcome. The function locks the agent's row, clamps, suspends an agent whose
 *   score a penalty takes to 0, counts a completed execution (`execution_count`) and a failed one or a
 *   dispute's outcome (`agent_stats`).
 * - `agent_stats` and `agent_latency`: per-agent totals and the execution-time histogram of charged
 *   executions, kept by a trigger on `transactions` (every charge inserts one row there; deferred to
 *   COMMIT), so the
 *   "all" analytics and the reputation breakdown never scan an agent's history.
 * - `platform_stats`: shards of platform totals, summed by `/payments/stats`: rows 0-15 count
 *   transactions and volume (trigger on `transactions`, a shard per agent keeps charges of different
 *   agents off one hot row), rows 16-31 agents and active agents (trigger on `agents`). Separate rows
 *   keep the lock orders apart: a charge locks its transaction shard before the agent's row, a status
 *   change locks the agent's row before its agent shard.
 * - Lock order of an outcome: its own rows and the ledger accounts, then the agent's row
 *   (`reputation_apply`, the last statement of a charge or a failure), then the rollup rows
 *   (`reputation_apply` after the row; the charge's trigger is deferred to COMMIT), so a success and a
 *   failure of one agent (or of a chain's nodes) committing together never wait on each other in a cycle.
 * - The score leaves what bumps `config_version`: a score that moves with every execution must not
 *   throw away the execute path's cached targets (a suspension still does, through `status`).
 * - `agent_ranking`: what discovery and the leaderboard rank and filter by (active, score, executions,
 *   age, capability names, lowest price), one narrow row per agent kept by a trigger on `agents`
 *   (which also copies the search document into `agent_search`, stable and narrow), with
 *   the ranking order as a partial index (`ix_agent_ranking_order`) and the names under a trigram
 *   index: a page is read from the index, a count never joins capabilities. Kept out of `agents` so
 *   the score's update on every charge stays a HOT update of the agents row.
 */
export class Reputation1763960000000 implements MigrationInterface {
  name = 'Reputation1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "reputation_events" (
      "id" bigserial NOT NULL,
      "agent_id" uuid NOT NULL,
      "type" character varying(32) NOT NULL,
      "delta" integer NOT NULL,
      "score" integer NOT NULL,
      "ref_id" character varying(64),
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "ck_reputation_events_score" CHECK ("score" BETWEEN 0 AND 100),
      CONSTRAINT "pk_reputation_events" PRIMARY KEY ("id"))`);
    // Covering: an analytics window counts an agent's events by type and sums their deltas from the index alone.
    await q.query(
      `CREATE INDEX "ix_reputation_events_agent_created" ON "reputation_events" ("agent_id", "created_at", "id") INCLUDE ("type", "delta")`,
    );

    await q.query(`CREATE TABLE "agent_stats" (
      "agent_id" uuid NOT NULL,
      "completed" bigint NOT NULL DEFAULT '0',
      "failed" bigint NOT NULL DEFAULT '0',
      "disputes_filed" bigint NOT NULL DEFAULT '0',
      "disputes_won" bigint NOT NULL DEFAULT '0',
      "disputes_lost" bigint NOT NULL DEFAULT '0',
      "gross" bigint NOT NULL DEFAULT '0',
      "platform_fees" bigint NOT NULL DEFAULT '0',
      "net" bigint NOT NULL DEFAULT '0',
      "time_sum_ms" bigint NOT NULL DEFAULT '0',
      CONSTRAINT "pk_agent_stats" PRIMARY KEY ("agent_id"))`);
    await q.query(`CREATE TABLE "agent_latency" (
      "agent_id" uuid NOT NULL,
      "bucket_ms" integer NOT NULL,
      "n" bigint NOT NULL,
      CONSTRAINT "pk_agent_latency" PRIMARY KEY ("agent_id", "bucket_ms"))`);
    await q.query(`CREATE TABLE "platform_stats" (
      "shard" smallint NOT NULL,
      "agents" bigint NOT NULL DEFAULT '0',
      "active_agents" bigint NOT NULL DEFAULT '0',
      "transactions" bigint NOT NULL DEFAULT '0',
      "volume" bigint NOT NULL DEFAULT '0',
      CONSTRAINT "pk_platform_stats" PRIMARY KEY ("shard"))`);
    await q.query(`INSERT INTO platform_stats (shard) SELECT generate_series(0, 31)`);

    // Exact below 1,024 ms; above, the top ten significant bits (within 0.2%).
    await q.query(`CREATE FUNCTION latency_bucket(ms integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE v integer := greatest(ms, 0); s integer := 0;
      BEGIN
        WHILE v >= 1024 LOOP v := v >> 1; s := s + 1; END LOOP;
        RETURN v << s;
      END $$`);
    await q.query(
      `CREATE FUNCTION stats_shard(agent uuid) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$ SELECT (abs(hashtext(agent::text)) % 16)::smallint $$`,
    );

    await q.query(`CREATE FUNCTION transactions_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO agent_stats AS s (agent_id, completed, gross, platform_fees, net, time_sum_ms)
          VALUES (NEW.providing_agent_id, 1, NEW.gross_amount, NEW.platform_fee + NEW.platform_cut, NEW.agent_earnings, NEW.execution_time_ms)
          ON CONFLICT (agent_id) DO UPDATE SET completed = s.completed + 1, gross = s.gross + EXCLUDED.gross,
            platform_fees = s.platform_fees + EXCLUDED.platform_fees, net = s.net + EXCLUDED.net, time_sum_ms = s.time_sum_ms + EXCLUDED.time_sum_ms;
        INSERT INTO agent_latency AS l (agent_id, bucket_ms, n) VALUES (NEW.providing_agent_id, latency_bucket(NEW.execution_time_ms), 1)
          ON CONFLICT (agent_id, bucket_ms) DO UPDATE SET n = l.n + 1;
        UPDATE platform_stats SET transactions = transactions + 1, volume = volume + NEW.gross_amount WHERE shard = stats_shard(NEW.providing_agent_id);
        RETURN NULL;
      END $$`);
    // Deferred to COMMIT: the rollup rows are locked after everything else the charge locks (below).
    await q.query(
      `CREATE CONSTRAINT TRIGGER tr_transactions_rollup AFTER INSERT ON transactions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION transactions_rollup()`,
    );

    await q.query(`CREATE FUNCTION agents_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE platform_stats SET agents = agents - 1, active_agents = active_agents - (OLD.status = 'active')::int WHERE shard = 16 + stats_shard(OLD.id);
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          UPDATE platform_stats SET agents = agents + 1, active_agents = active_agents + (NEW.status = 'active')::int WHERE shard = 16 + stats_shard(NEW.id);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER tr_agents_rollup_insert_delete AFTER INSERT OR DELETE ON agents FOR EACH ROW EXECUTE FUNCTION agents_rollup()`,
    );
    await q.query(`CREATE TRIGGER tr_agents_rollup_status AFTER UPDATE OF status ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION agents_rollup()`);

    // delta: the change the outcome asks for; the event records what was applied after the clamp.
    // Returns the score after (NULL: no such agent).
    await q.query(`CREATE FUNCTION reputation_apply(p_agent uuid, p_type text, p_delta integer, p_ref text) RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE before integer; after integer;
      BEGIN
        SELECT reputation_score INTO before FROM agents WHERE id = p_agent FOR UPDATE;
        IF NOT FOUND THEN RETURN NULL; END IF;
        after := least(100, greatest(0, before + p_delta));
        UPDATE agents SET reputation_score = after,
               execution_count = execution_count + (p_type = 'execution.completed')::int,
               status = CASE WHEN p_delta < 0 AND after = 0 THEN 'suspended' ELSE status END,
               suspended_reason = CASE WHEN p_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation reached 0' ELSE suspended_reason END
         WHERE id = p_agent;
        INSERT INTO reputation_events (agent_id, type, delta, score, ref_id) VALUES (p_agent, p_type, after - before, after, p_ref);
        IF p_type IN ('execution.failed', 'dispute.filed', 'dispute.agent_wins', 'dispute.client_wins') THEN
          INSERT INTO agent_stats AS s (agent_id, failed, disputes_filed, disputes_won, disputes_lost)
            VALUES (p_agent, (p_type = 'execution.failed')::int, (p_type = 'dispute.filed')::int, (p_type = 'dispute.agent_wins')::int, (p_type = 'dispute.client_wins')::int)
            ON CONFLICT (agent_id) DO UPDATE SET failed = s.failed + EXCLUDED.failed, disputes_filed = s.disputes_filed + EXCLUDED.disputes_filed,
              disputes_won = s.disputes_won + EXCLUDED.disputes_won, disputes_lost = s.disputes_lost + EXCLUDED.disputes_lost;
        END IF;
        RETURN after;
      END $$`);

    // What existed before: totals from the charged transactions, agents counted.
    await q.query(`INSERT INTO agent_stats (agent_id, completed, gross, platform_fees, net, time_sum_ms)
      SELECT providing_agent_id, count(*), sum(gross_amount), sum(platform_fee + platform_cut), sum(agent_earnings), sum(execution_time_ms)
        FROM transactions GROUP BY providing_agent_id`);
    await q.query(`INSERT INTO agent_latency (agent_id, bucket_ms, n)
      SELECT providing_agent_id, latency_bucket(execution_time_ms), count(*) FROM transactions GROUP BY 1, 2`);
    await q.query(`UPDATE platform_stats p SET transactions = t.n, volume = t.v
      FROM (SELECT stats_shard(providing_agent_id) AS shard, count(*) AS n, sum(gross_amount) AS v FROM transactions GROUP BY 1) t WHERE p.shard = t.shard`);
    await q.query(`UPDATE platform_stats p SET agents = a.n, active_agents = a.active
      FROM (SELECT 16 + stats_shard(id) AS shard, count(*) AS n, count(*) FILTER (WHERE status = 'active') AS active FROM agents GROUP BY 1) a WHERE p.shard = a.shard`);

    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.chain_settings IS DISTINCT FROM NEW.chain_settings)
      EXECUTE FUNCTION agents_config_changed()`);

    // History pages walk an agent's transactions newest first: (agent, created_at, id) is that order, and
    // an OFFSET page skips index entries only (the page's ids first, then their rows).
    await q.query(`DROP INDEX "ix_transactions_agent_created"`);
    await q.query(
      `CREATE INDEX "ix_transactions_agent_created" ON "transactions" ("providing_agent_id", "created_at", "id")`,
    );

    // The ranking lives in its own narrow table: an index on the agents row holding the score would
    // make every charge's update of that row a non-HOT one, writing new entries into every index of
    // agents (its full-text and trigram GINs included).
    await q.query(`DROP INDEX "ix_agents_status_reputation"`);
    await q.query(`CREATE TABLE "agent_ranking" (
      "agent_id" uuid NOT NULL,
      "active" boolean NOT NULL,
      "score" integer NOT NULL,
      "executions" integer NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "capability_names" text NOT NULL DEFAULT '',
      "min_price" bigint,
      CONSTRAINT "pk_agent_ranking" PRIMARY KEY ("agent_id"),
      CONSTRAINT "fk_agent_ranking_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE)`);
    await q.query(
      `CREATE INDEX "ix_agent_ranking_order" ON "agent_ranking" ("score" DESC, "executions" DESC, "created_at", "agent_id") WHERE active`,
    );
    await q.query(
      `CREATE INDEX "ix_agent_ranking_names_trgm" ON "agent_ranking" USING gin ("capability_names" gin_trgm_ops) WHERE active`,
    );
    // A copy of each agent's search document in a narrow table of its own (no GIN: the agents table has
    // it): recommend checks the best-ranked agents' documents without reading their wide rows.
    await q.query(`CREATE TABLE "agent_search" (
      "agent_id" uuid NOT NULL,
      "search_vector" tsvector,
      CONSTRAINT "pk_agent_search" PRIMARY KEY ("agent_id"),
      CONSTRAINT "fk_agent_search_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE)`);
    // Capability names joined by U+001F (no name holds it; a filter that does is checked row by row).
    await q.query(`CREATE FUNCTION agent_ranking_row(agent uuid) RETURNS void LANGUAGE sql AS $$
      INSERT INTO agent_ranking AS r (agent_id, active, score, executions, created_at, capability_names, min_price)
      SELECT a.id, a.status = 'active', a.reputation_score, a.execution_count, a.created_at,
             coalesce((SELECT string_agg(c.name, chr(31) ORDER BY c.position) FROM agent_capabilities c WHERE c.agent_id = a.id), ''),
             (SELECT min(c.base_price) FROM agent_capabilities c WHERE c.agent_id = a.id)
        FROM agents a WHERE a.id = agent
      ON CONFLICT (agent_id) DO UPDATE SET active = EXCLUDED.active, score = EXCLUDED.score, executions = EXCLUDED.executions,
        capability_names = EXCLUDED.capability_names, min_price = EXCLUDED.min_price $$`);
    // Every change of what the ranking shows; a score or a count (every outcome) updates two integers.
    await q.query(`CREATE FUNCTION agents_ranking() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR OLD.search_vector IS DISTINCT FROM NEW.search_vector THEN
          INSERT INTO agent_search (agent_id, search_vector) VALUES (NEW.id, NEW.search_vector)
            ON CONFLICT (agent_id) DO UPDATE SET search_vector = EXCLUDED.search_vector;
        END IF;
        IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status OR OLD.config_version IS DISTINCT FROM NEW.config_version THEN
          PERFORM agent_ranking_row(NEW.id);
        ELSE
          UPDATE agent_ranking SET score = NEW.reputation_score, executions = NEW.execution_count WHERE agent_id = NEW.id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER tr_agents_ranking AFTER INSERT OR UPDATE OF status, config_version, reputation_score, execution_count, search_vector ON agents FOR EACH ROW
      EXECUTE FUNCTION agents_ranking()`);
    await q.query(`INSERT INTO agent_search (agent_id, search_vector) SELECT id, search_vector FROM agents`);
    // Every agent's ledger accounts exist before its next posting (LedgerService.openAccounts: a
    // posting that creates one locks it out of id order).
    await q.query(`INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance, max_balance)
      SELECT gen_random_uuid(), 'agent:' || a.id || ':' || k.kind, k.kind, a.id::text, k.mn, k.mx
        FROM agents a CROSS JOIN (VALUES ('available', 0::bigint, NULL::bigint), ('escrow', 0, NULL), ('frozen', 0, NULL), ('withdrawing', 0, NULL), ('owed', NULL, 0)) AS k(kind, mn, mx)
      ON CONFLICT (code) DO NOTHING`);
    await q.query(`INSERT INTO agent_ranking (agent_id, active, score, executions, created_at, capability_names, min_price)
      SELECT a.id, a.status = 'active', a.reputation_score, a.execution_count, a.created_at, coalesce(c.names, ''), c.min_price
        FROM agents a LEFT JOIN (SELECT agent_id, string_agg(name, chr(31) ORDER BY position) AS names, min(base_price) AS min_price
                                   FROM agent_capabilities GROUP BY agent_id) c ON c.agent_id = a.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_agents_ranking ON agents`);
    await q.query(`DROP FUNCTION agents_ranking()`);
    await q.query(`DROP FUNCTION agent_ranking_row(uuid)`);
    await q.query(`DROP TABLE "agent_ranking"`);
    await q.query(`DROP TABLE "agent_search"`);
    await q.query(`DROP INDEX "ix_transactions_agent_created"`);
    await q.query(
      `CREATE INDEX "ix_transactions_agent_created" ON "transactions" ("providing_agent_id", "created_at")`,
    );
    await q.query(`CREATE INDEX "ix_agents_status_reputation" ON "agents" ("status", "reputation_score")`);
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.reputation_score IS DISTINCT FROM NEW.reputation_score OR OLD.chain_settings IS DISTINCT FROM NEW.chain_settings)
      EXECUTE FUNCTION agents_config_changed()`);
    await q.query(`DROP FUNCTION reputation_apply(uuid, text, integer, text)`);
    await q.query(`DROP TRIGGER tr_agents_rollup_status ON agents`);
    await q.query(`DROP TRIGGER tr_agents_rollup_insert_delete ON agents`);
    await q.query(`DROP FUNCTION agents_rollup()`);
    await q.query(`DROP TRIGGER tr_transactions_rollup ON transactions`);
    await q.query(`DROP FUNCTION transactions_rollup()`);
    await q.query(`DROP FUNCTION stats_shard(uuid)`);
    await q.query(`DROP FUNCTION latency_bucket(integer)`);
    await q.query(`DROP TABLE "platform_stats"`);
    await q.query(`DROP TABLE "agent_latency"`);
    await q.query(`DROP TABLE "agent_stats"`);
    await q.query(`DROP TABLE "reputation_events"`);
  }
}
