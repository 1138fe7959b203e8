import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time series for the console's charts (libs/analytics/src/series), kept by the worker and never by
 * the execute path: `series_ingest` reads what ended since its cursor and adds it to hourly rows.
 *
 * - `series_agent_hourly`: an agent's executions that ended in the hour (by `completed_at`), how many
 *   succeeded, the latency histogram of those (`series_hist`, 37 buckets bounded by BOUNDS), and the
 *   charges made in the hour (by the transaction's `created_at`): volume and the agent's earnings.
 * - `series_platform`: the same per hour and per day (UTC) for the whole platform, with the number
 *   of distinct payers (buyers) and agents (sellers) whose executions ended in it. `series_seen`
 *   holds the open buckets' sets (a bucket's rows are pruned once the cursor has passed it).
 * - `series_cursor`: per source table, the last row added ((time, id) in keyset order, each row once)
 *   and `complete_to`, the time before which every row is in. The times are the database's own:
 *   `executions.ended_at` (now() of the transaction that recorded the end; set again by a retry's
 *   end, so each attempt counts, as the failures in /analytics do) and `transactions.created_at`.
 *   A run reads up to `p_limit` rows stamped before its horizon: now - `p_lag_ms`, and before the
 *   start of any transaction still open (it may commit rows stamped earlier), except one open for
 *   over five minutes. Both cursors are taken first (or the run does nothing: another is running),
 *   and the rows are added in the transaction that moves them.
 * - BRIN indexes on the two stamps: near-free to keep on insert (the execute path), and they find
 *   the recent page ranges a run reads.
 */
const BOUNDS = `'{1,2,3,5,7,10,15,20,30,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,10000,15000,20000,30000,50000,70000,100000,150000,200000,300000,500000,700000,1000000}'::int[]`;
const ZEROS = `array_fill(0, ARRAY[37])`;
const PRUNE_XACT = `interval '5 minutes'`;
const SEEN_MARGIN = `interval '10 minutes'`;

export class Series1764150000000 implements MigrationInterface {
  name = 'Series1764150000000';
  /** The BRIN indexes are built CONCURRENTLY (executions go on meanwhile): each statement is its own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    // The rows already there: -infinity (a constant default, no table rewrite), so they are read in
    // completed_at order; new rows take now(), and each end sets it again.
    await q.query(
      `ALTER TABLE "executions" ADD COLUMN IF NOT EXISTS "ended_at" timestamptz NOT NULL DEFAULT '-infinity'`,
    );
    await q.query(`ALTER TABLE "executions" ALTER COLUMN "ended_at" SET DEFAULT now()`);
    // A build that failed half-way leaves an invalid index that IF NOT EXISTS would keep: start afresh.
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_executions_ended_brin"`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_transactions_created_brin"`);
    await q.query(`CREATE INDEX CONCURRENTLY "ix_executions_ended_brin" ON "executions" USING brin ("ended_at")`);
    await q.query(
      `CREATE INDEX CONCURRENTLY "ix_transactions_created_brin" ON "transactions" USING brin ("created_at")`,
    );
    await q.query(`CREATE TABLE IF NOT EXISTS "series_cursor" (
      "source" varchar(16) NOT NULL, "upto_at" timestamptz NOT NULL DEFAULT '-infinity', "upto_sub" timestamptz NOT NULL DEFAULT '-infinity', "upto_id" varchar(40) NOT NULL DEFAULT '',
      "complete_to" timestamptz NOT NULL DEFAULT '-infinity',
      CONSTRAINT "pk_series_cursor" PRIMARY KEY ("source"))`);
    await q.query(
      `INSERT INTO series_cursor (source) VALUES ('executions'), ('transactions') ON CONFLICT (source) DO NOTHING`,
    );
    await q.query(`CREATE TABLE IF NOT EXISTS "series_agent_hourly" (
      "agent_id" uuid NOT NULL, "hour" timestamptz NOT NULL,
      "executions" integer NOT NULL DEFAULT 0, "succeeded" integer NOT NULL DEFAULT 0,
      "latency" integer[] NOT NULL DEFAULT ${ZEROS}, "volume" bigint NOT NULL DEFAULT 0, "earnings" bigint NOT NULL DEFAULT 0,
      CONSTRAINT "pk_series_agent_hourly" PRIMARY KEY ("agent_id", "hour"))`);
    await q.query(`CREATE TABLE IF NOT EXISTS "series_platform" (
      "bucket" varchar(4) NOT NULL, "at" timestamptz NOT NULL,
      "executions" bigint NOT NULL DEFAULT 0, "succeeded" bigint NOT NULL DEFAULT 0, "volume" bigint NOT NULL DEFAULT 0,
      "buyers" bigint NOT NULL DEFAULT 0, "sellers" bigint NOT NULL DEFAULT 0,
      CONSTRAINT "pk_series_platform" PRIMARY KEY ("bucket", "at"), CONSTRAINT "ck_series_platform_bucket" CHECK ("bucket" IN ('hour', 'day')))`);
    await q.query(`CREATE TABLE IF NOT EXISTS "series_seen" (
      "bucket" varchar(4) NOT NULL, "at" timestamptz NOT NULL, "kind" char(1) NOT NULL, "who" varchar(64) NOT NULL,
      CONSTRAINT "pk_series_seen" PRIMARY KEY ("bucket", "at", "kind", "who"))`);

    await q.query(`CREATE OR REPLACE FUNCTION series_hist_step(h integer[], ms integer) RETURNS integer[] LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE i integer := 1 + (SELECT count(*)::int FROM unnest(${BOUNDS}) b WHERE b < coalesce(ms, 0));
      BEGIN h[i] := h[i] + 1; RETURN h; END $$`);
    await q.query(`DROP AGGREGATE IF EXISTS series_hist(integer)`);
    await q.query(
      `CREATE AGGREGATE series_hist(integer) (sfunc = series_hist_step, stype = integer[], initcond = '{${Array(37).fill(0).join(',')}}')`,
    );
    await q.query(`CREATE OR REPLACE FUNCTION series_hist_add(a integer[], b integer[]) RETURNS integer[] LANGUAGE sql IMMUTABLE AS $$
      SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$`);
    await q.query(INGEST);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS series_ingest(integer, integer)`);
    await q.query(`DROP FUNCTION IF EXISTS series_hist_add(integer[], integer[])`);
    await q.query(`DROP AGGREGATE IF EXISTS series_hist(integer)`);
    await q.query(`DROP FUNCTION IF EXISTS series_hist_step(integer[], integer)`);
    await q.query(`DROP TABLE IF EXISTS "series_seen", "series_platform", "series_agent_hourly", "series_cursor"`);
    await q.query(`DROP INDEX IF EXISTS "ix_transactions_created_brin"`);
    await q.query(`DROP INDEX IF EXISTS "ix_executions_ended_brin"`);
    await q.query(`ALTER TABLE "executions" DROP COLUMN IF EXISTS "ended_at"`);
  }
}

const INGEST = `CREATE OR REPLACE FUNCTION series_ingest(p_lag_ms integer, p_limit integer)
  RETURNS TABLE (executions integer, transactions integer, upto timestamptz) LANGUAGE plpgsql AS $$
  DECLARE horizon timestamptz; c_at timestamptz; c_sub timestamptz; c_id varchar; l_at timestamptz; l_sub timestamptz;
    l_id varchar; n integer;
  BEGIN
    horizon := least(now(), coalesce((SELECT min(a.xact_start) FROM pg_stat_activity a
      WHERE a.pid <> pg_backend_pid() AND a.datname = current_database() AND a.backend_type = 'client backend'
        AND a.xact_start > now() - ${PRUNE_XACT}), now())) - make_interval(secs => p_lag_ms / 1000.0);
    executions := 0; transactions := 0; upto := horizon;
    -- Both cursors in one order, or none: two runs never add to the same rows at once.
    IF (SELECT count(*) FROM (SELECT 1 FROM series_cursor ORDER BY source FOR UPDATE SKIP LOCKED) x) < 2 THEN
      RETURN NEXT; RETURN;
    END IF;

    SELECT s.upto_at, s.upto_sub, s.upto_id INTO c_at, c_sub, c_id FROM series_cursor s WHERE s.source = 'executions';
    BEGIN
      WITH batch AS MATERIALIZED (
        SELECT e.id, e.agent_id, lower(e.payer) AS payer, e.status = 'completed' AS ok, e.execution_time_ms AS ms,
               e.completed_at AS at, e.ended_at AS stamp, coalesce(e.completed_at, '-infinity') AS sub,
               e.status <> 'pending' AND e.completed_at IS NOT NULL AS ended
          FROM executions e
         WHERE e.ended_at >= c_at AND (e.ended_at, coalesce(e.completed_at, '-infinity'), e.id) > (c_at, c_sub, c_id)
           AND e.ended_at < horizon
         ORDER BY e.ended_at, coalesce(e.completed_at, '-infinity'), e.id LIMIT p_limit),
      done AS (SELECT * FROM batch WHERE ended),
      per_agent AS (
        INSERT INTO series_agent_hourly AS s (agent_id, hour, executions, succeeded, latency)
        SELECT b.agent_id, date_trunc('hour', b.at, 'UTC'), count(*), count(*) FILTER (WHERE b.ok),
          coalesce(series_hist(b.ms) FILTER (WHERE b.ok), ${ZEROS}) FROM done b GROUP BY 1, 2
        ON CONFLICT (agent_id, hour) DO UPDATE SET executions = s.executions + EXCLUDED.executions,
          succeeded = s.succeeded + EXCLUDED.succeeded, latency = series_hist_add(s.latency, EXCLUDED.latency)),
      buckets AS (
        SELECT k.bucket, date_trunc(k.bucket, b.at, 'UTC') AS at, b.payer, b.agent_id, b.ok
          FROM done b CROSS JOIN (VALUES ('hour'), ('day')) AS k(bucket)),
      seen AS (
        INSERT INTO series_seen (bucket, at, kind, who)
        SELECT DISTINCT x.bucket, x.at, 'b', x.payer FROM buckets x
        UNION SELECT DISTINCT x.bucket, x.at, 's', x.agent_id::text FROM buckets x
        ON CONFLICT DO NOTHING RETURNING series_seen.bucket, series_seen.at, series_seen.kind),
      fresh AS (
        SELECT f.bucket, f.at, count(*) FILTER (WHERE f.kind = 'b') AS buyers, count(*) FILTER (WHERE f.kind = 's') AS sellers
          FROM seen f GROUP BY 1, 2),
      platform AS (
        INSERT INTO series_platform AS p (bucket, at, executions, succeeded, buyers, sellers)
        SELECT g.bucket, g.at, g.n, g.ok, coalesce(f.buyers, 0), coalesce(f.sellers, 0)
          FROM (SELECT x.bucket, x.at, count(*) AS n, count(*) FILTER (WHERE x.ok) AS ok FROM buckets x GROUP BY 1, 2) g
          LEFT JOIN fresh f ON f.bucket = g.bucket AND f.at = g.at
        ON CONFLICT (bucket, at) DO UPDATE SET executions = p.executions + EXCLUDED.executions, succeeded = p.succeeded + EXCLUDED.succeeded,
          buyers = p.buyers + EXCLUDED.buyers, sellers = p.sellers + EXCLUDED.sellers)
      SELECT count(*)::int, (array_agg(b.stamp ORDER BY b.stamp DESC, b.sub DESC, b.id DESC))[1],
             (array_agg(b.sub ORDER BY b.stamp DESC, b.sub DESC, b.id DESC))[1], (array_agg(b.id ORDER BY b.stamp DESC, b.sub DESC, b.id DESC))[1]
        INTO n, l_at, l_sub, l_id FROM batch b;
      UPDATE series_cursor SET upto_at = coalesce(l_at, upto_at), upto_sub = coalesce(l_sub, upto_sub), upto_id = coalesce(l_id, upto_id),
        complete_to = CASE WHEN n < p_limit THEN horizon WHEN isfinite(l_at) THEN l_at ELSE '-infinity' END WHERE source = 'executions';
      -- The sets of buckets no later row can fall in: rows come in end order, and end within
      -- ${SEEN_MARGIN} of the time they record (the rows from before this migration: in completed_at order).
      IF n > 0 THEN
        l_at := CASE WHEN isfinite(l_at) THEN l_at ELSE l_sub END - ${SEEN_MARGIN};
        DELETE FROM series_seen WHERE (bucket = 'hour' AND at < date_trunc('hour', l_at, 'UTC')) OR (bucket = 'day' AND at < date_trunc('day', l_at, 'UTC'));
      END IF;
      executions := n;
    END;

    SELECT s.upto_at, s.upto_id INTO c_at, c_id FROM series_cursor s WHERE s.source = 'transactions';
    BEGIN
      WITH batch AS MATERIALIZED (
        SELECT t.id, t.providing_agent_id AS agent_id, t.gross_amount AS gross, t.agent_earnings AS earned, t.created_at AS at
          FROM transactions t
         WHERE t.created_at >= c_at AND (t.created_at, t.id) > (c_at, c_id) AND t.created_at < horizon
         ORDER BY t.created_at, t.id LIMIT p_limit),
      per_agent AS (
        INSERT INTO series_agent_hourly AS s (agent_id, hour, volume, earnings)
        SELECT b.agent_id, date_trunc('hour', b.at, 'UTC'), sum(b.gross), sum(b.earned) FROM batch b GROUP BY 1, 2
        ON CONFLICT (agent_id, hour) DO UPDATE SET volume = s.volume + EXCLUDED.volume, earnings = s.earnings + EXCLUDED.earnings),
      platform AS (
        INSERT INTO series_platform AS p (bucket, at, volume)
        SELECT k.bucket, date_trunc(k.bucket, b.at, 'UTC'), sum(b.gross) FROM batch b CROSS JOIN (VALUES ('hour'), ('day')) AS k(bucket) GROUP BY 1, 2
        ON CONFLICT (bucket, at) DO UPDATE SET volume = p.volume + EXCLUDED.volume)
      SELECT count(*)::int, (array_agg(b.at ORDER BY b.at DESC, b.id DESC))[1], (array_agg(b.id ORDER BY b.at DESC, b.id DESC))[1]
        INTO n, l_at, l_id FROM batch b;
      UPDATE series_cursor SET upto_at = coalesce(l_at, upto_at), upto_id = coalesce(l_id, upto_id),
        complete_to = CASE WHEN n < p_limit THEN horizon ELSE l_at END WHERE source = 'transactions';
      transactions := n;
    END;
    RETURN NEXT;
  END $$`;
