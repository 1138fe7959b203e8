/* Seeding for npm run bench:scale: N agents (3 capabilities each) and M charged executions, set-based
   (INSERT ... SELECT generate_series), deterministic: every random choice is a hash of the row's index
   and a salt (pg_temp.rnd), so a size always seeds the same rows (timestamps are relative to now()).
   The rows are loaded at the schema before the newest migration (SCALE_SEED_BEFORE, Reputation by
   default), triggers off (session_replication_role = replica) and secondary indexes built after the
   load; then the remaining migrations run, so what they derive from the rows (agent_stats, agent_latency,
   platform_stats, agent_ranking: the rollups the triggers keep) comes from their own backfill, as on a
   real upgrade. Failed executions (5% more) then become reputation events and agent_stats.failed. */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, MIGRATIONS } from '@app/database';
import { emptyDatabase } from './bench-lib';

export interface SeedOptions {
  agents: number;
  executions: number;
  /** The hot agent's wallet (checksummed): the bench signs its history requests with it. */
  hotWallet: string;
  /** Also insert the `executions` rows (not read by the measured routes). */
  executionRows: boolean;
  log?: (line: string) => void;
}

export interface SeedResult {
  hotAgentId: string;
  hotTransactions: number;
  failed: number;
  ms: number;
  steps: Record<string, number>;
}

/** ~50 skill words: verbs and what they act on; capabilities are `verb-object` (translate-french, summarize-pdf). */
export const VERBS =
  'translate summarize transcribe classify extract detect generate analyze convert review forecast ocr caption moderate search tag compare validate redact score'.split(
    ' ',
  );
export const OBJECTS =
  'french pdf image sentiment code audio weather stock spanish german japanese english text video invoice email contract news receipt chart table json csv speech document resume product price crypto tweet'.split(
    ' ',
  );
const PREFIXES = [
  'Swift',
  'Nova',
  'Polyglot',
  'Atlas',
  'Echo',
  'Quill',
  'Lumen',
  'Vector',
  'Orbit',
  'Sage',
  'Pixel',
  'Relay',
];
const SUFFIXES = ['Agent', 'Bot', 'Pro', 'AI', 'Assistant', 'Service'];
const TAGLINES = [
  'Fast, accurate and priced per request.',
  'Built for production workloads with low latency.',
  'Reliable results in seconds.',
  'Handles large inputs and returns structured JSON.',
  'Trusted by hundreds of agents.',
];
const CHAIN_SETTINGS = JSON.stringify({
  chain_enabled: true,
  chain_max_depth: 5,
  chain_allowed_callers: [],
  chain_blocked_callers: [],
});
/** Tables loaded here whose secondary indexes are built after the load. */
const DEFERRED_INDEX_TABLES = ['agents', 'agent_capabilities', 'transactions', 'executions'];
/** Distinct payer wallets the executions come from. */
const PAYERS = 5_000;

const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;

/** Session helpers, gone when the connection closes: nothing of the seeding stays in the schema. */
const HELPERS = [
  // Uniform in [0, 1) from (index, salt): 52 bits of a 64-bit hash.
  `CREATE FUNCTION pg_temp.rnd(i bigint, salt bigint) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT ((hashint8extended(i, salt) >> 11) & 4503599627370495)::float8 / 4503599627370496.0 $$`,
  // Skewed picks: translate is the most common verb (~14% of capabilities), french/pdf the most common objects.
  `CREATE FUNCTION pg_temp.verb(i bigint, p int) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT (${sqlArray(VERBS)})[1 + floor(${VERBS.length} * pg_temp.rnd(i, 10 + p) ^ 1.5)::int] $$`,
  `CREATE FUNCTION pg_temp.obj(i bigint, p int) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT (${sqlArray(OBJECTS)})[1 + floor(${OBJECTS.length} * pg_temp.rnd(i, 20 + p) ^ 1.3)::int] $$`,
  `CREATE FUNCTION pg_temp.pick(words text[], i bigint, salt bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT words[1 + floor(cardinality(words) * pg_temp.rnd(i, salt))::int] $$`,
  `CREATE FUNCTION pg_temp.agent_id(i bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$ SELECT md5('agent:' || i)::uuid $$`,
  // Agent 1 is hot (every tenth row); the rest go to agents 2..n, skewed towards the low indexes.
  `CREATE FUNCTION pg_temp.provider(k bigint, n bigint, salt bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
     $$ SELECT pg_temp.agent_id(CASE WHEN k % 10 = 0 THEN 1 ELSE 2 + floor((n - 1) * pg_temp.rnd(k, salt) ^ 2)::bigint END) $$`,
];

/** Runs `migrations` (those not yet run) on the database at `url`. */
async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const ds = new DataSource({ ...buildDataSourceOptions({ url, poolSize: 1 }), migrations });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}

/** Drops and creates database `name`, seeds it at the size asked (see above) with every migration run; answers its URL and the hot agent. */
export async function seedDatabase(name: string, o: SeedOptions): Promise<SeedResult & { url: string }> {
  if (o.agents < 2 || o.executions < 10) throw new Error('scale-seed: at least 2 agents and 10 executions');
  const before = process.env.SCALE_SEED_BEFORE ?? 'Reputation1763960000000';
  const cut = MIGRATIONS.findIndex((m) => m.name === before);
  if (cut < 0) throw new Error(`scale-seed: no migration ${before} (SCALE_SEED_BEFORE)`);
  const url = await emptyDatabase(name);
  await migrate(url, MIGRATIONS.slice(0, cut));
  const t0 = performance.now();

  const db = new Client({ connectionString: url });
  await db.connect();
  const steps: Record<string, number> = {};
  const timed = async <T>(name: string, run: () => Promise<T>, rows?: (r: T) => number): Promise<T> => {
    const t = performance.now();
    const r = await run();
    steps[name] = Math.round(performance.now() - t);
    o.log?.(`    ${name}: ${rows ? `${rows(r)} rows, ` : ''}${steps[name]} ms`);
    return r;
  };
  const step = (name: string, sql: string, params: unknown[] = []) =>
    timed(
      name,
      () => db.query(sql, params),
      (r) => r.rowCount ?? 0,
    );
  const N = o.agents;
  const M = o.executions;
  const F = Math.round(M * 0.05);
  try {
    await db.query(`SET session_replication_role = replica`); // no triggers (nor FK checks) while loading
    await db.query(`SET work_mem = '256MB'`);
    await db.query(`SET maintenance_work_mem = '512MB'`);
    await db.query(`SET synchronous_commit = off`);
    for (const sql of HELPERS) await db.query(sql);
    // Secondary indexes (not those behind a constraint) are dropped while loading and built again from
    // their own definitions afterwards: one sorted build each instead of a million random inserts.
    const { rows: deferred } = await db.query(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
        WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
      [DEFERRED_INDEX_TABLES],
    );
    for (const ix of deferred) await db.query(`DROP INDEX ${ix.name}`);

    await step(
      'agents',
      `INSERT INTO agents (id, wallet, name, description, endpoints, metadata, reputation_score, status, chain_settings, execution_count, created_at, updated_at)
       SELECT pg_temp.agent_id(i),
              CASE WHEN i = 1 THEN $2 ELSE '0x' || substr(md5('wallet:' || i) || md5('wallet+' || i), 1, 40) END,
              pg_temp.pick($3, i, 1) || ' ' || initcap(pg_temp.verb(i, 0)) || ' ' || initcap(pg_temp.obj(i, 0)) || ' ' || pg_temp.pick($4, i, 2),
              format('%s %s, %s %s and %s %s. %s', initcap(pg_temp.verb(i, 0)), pg_temp.obj(i, 0), pg_temp.verb(i, 1), pg_temp.obj(i, 1),
                     pg_temp.verb(i, 2), pg_temp.obj(i, 2), pg_temp.pick($5, i, 3)),
              jsonb_build_object('execution', 'https://agent.example/' || i || '/execute'),
              '{}'::jsonb,
              CASE WHEN i = 1 THEN 97 WHEN pg_temp.rnd(i, 4) < 0.85 THEN 40 + floor(51 * pg_temp.rnd(i, 5)) ELSE floor(101 * pg_temp.rnd(i, 5)) END,
              CASE WHEN i > 1 AND pg_temp.rnd(i, 6) < 0.05 THEN 'inactive' ELSE 'active' END,
              $6::jsonb,
              0,
              now() - interval '1 day' * (90 + 275 * pg_temp.rnd(i, 7)),
              now() - interval '1 day' * (90 * pg_temp.rnd(i, 8))
         FROM generate_series(1, $1::bigint) i`,
      [N, o.hotWallet, PREFIXES, SUFFIXES, TAGLINES, CHAIN_SETTINGS],
    );

    // Three capabilities each; a slug drawn twice for one agent gets its position as a suffix (the key is agent + id).
    await step(
      'agent_capabilities',
      `INSERT INTO agent_capabilities (agent_id, capability_id, position, name, description, pricing_model, base_price, currency)
       SELECT pg_temp.agent_id(i), CASE WHEN dup > 1 THEN slug || '-' || (p + 1) ELSE slug END, p, slug,
              format('%s %s input quickly and return a structured result.', initcap(verb), obj),
              'per-request', round(1000 * 500 ^ pg_temp.rnd(i, 30 + p))::bigint, 'USDC'
         FROM (SELECT i, p, verb, obj, slug, row_number() OVER (PARTITION BY i, slug ORDER BY p) AS dup
                 FROM (SELECT i, p, pg_temp.verb(i, p) AS verb, pg_temp.obj(i, p) AS obj, pg_temp.verb(i, p) || '-' || pg_temp.obj(i, p) AS slug
                         FROM generate_series(1, $1::bigint) i, generate_series(0, 2) p) s) d`,
      [N],
    );

    // Charged executions as the escrow service writes them: gross = platform fee + agent fee, cut = half-up 5%.
    // Rows go in in time order, as they would have been written; time log-uniform-ish 5..5000 ms (median ~160).
    await step(
      'transactions',
      `INSERT INTO transactions (id, requesting_agent, payer_wallet, providing_agent_id, capability_id, gross_amount, platform_fee, agent_fee,
                                 platform_cut, agent_earnings, status, execution_time_ms, payment_id, escrow_id, created_at, completed_at)
       SELECT 'tx_' || substr(md5('tx:' || t.j), 1, 20), t.payer, t.payer, c.agent_id, c.capability_id, 1000 + c.base_price, 1000, c.base_price,
              (c.base_price * 500 + 5000) / 10000, c.base_price - (c.base_price * 500 + 5000) / 10000, 'completed', t.ms,
              'pay_' || substr(md5('pay:' || t.j), 1, 20), NULL, t.created, t.created + t.ms * interval '1 millisecond'
         FROM (SELECT j, pg_temp.provider(j, $2, 41) AS agent_id, floor(3 * pg_temp.rnd(j, 42))::int AS p,
                      round(exp(ln(5) + ln(1000) * (pg_temp.rnd(j, 43) + pg_temp.rnd(j, 44)) / 2))::int AS ms,
                      now() - interval '90 days' * pg_temp.rnd(j, 45) AS created,
                      '0x' || substr(md5('payer:' || j % ${PAYERS}) || md5('payer+' || j % ${PAYERS}), 1, 40) AS payer
                 FROM generate_series(1, $1::bigint) j) t
         JOIN agent_capabilities c ON c.agent_id = t.agent_id AND c.position = t.p
        ORDER BY t.created`,
      [M, N],
    );

    // ~5% more executions that failed: an executions row each (below) and, once the migrations ran, a reputation event.
    await step(
      'failures (temp)',
      `CREATE TEMP TABLE fails AS
       SELECT k, c.agent_id, c.capability_id, c.base_price, a.reputation_score AS score, now() - interval '90 days' * pg_temp.rnd(k, 52) AS at,
              '0x' || substr(md5('payer:' || k % ${PAYERS}) || md5('payer+' || k % ${PAYERS}), 1, 40) AS payer
         FROM generate_series(1, ${F}) k
         JOIN agent_capabilities c ON c.agent_id = pg_temp.provider(k, ${N}, 51) AND c.position = 0
         JOIN agents a ON a.id = c.agent_id`,
    );
    if (o.executionRows) {
      await step(
        'executions (completed)',
        `INSERT INTO executions (id, agent_id, capability_id, payer, input, output, status, settlement_status, execution_time_ms, agent_fee, authorized_agent_fee,
                                 pricing_model, unit_price, platform_fee, payment_id, transaction_id, header_hash, created_at, updated_at, completed_at)
         SELECT 'req_' || substr(id, 4), providing_agent_id, capability_id, payer_wallet, '{"text":"hello"}', '{"ok":true}', 'completed', 'settled',
                execution_time_ms, agent_fee, agent_fee, 'per-request', agent_fee, platform_fee, payment_id, id, md5('header:' || id), created_at, completed_at, completed_at
           FROM transactions ORDER BY created_at`,
      );
      await step(
        'executions (failed)',
        `INSERT INTO executions (id, agent_id, capability_id, payer, input, status, agent_error, execution_time_ms, agent_fee, authorized_agent_fee,
                                 pricing_model, unit_price, platform_fee, payment_id, header_hash, created_at, updated_at, completed_at)
         SELECT 'req_x' || substr(md5('fail:' || k), 1, 19), agent_id, capability_id, payer, '{"text":"hello"}', 'failed', 'agent answered 500', 30000, 0, base_price,
                'per-request', base_price, 1000, 'pay_x' || substr(md5('fail:' || k), 1, 19), md5('header-f:' || k), at, at, at
           FROM fails ORDER BY at`,
      );
    }

    // refreshSearch (libs/agents/src/agents.repository.ts) for every agent at once; execution_count = its completed executions.
    await step(
      'search + execution_count',
      `UPDATE agents a SET
         search_text = lower(concat_ws(' ', a.name, a.description, c.names, c.descs)),
         search_vector = setweight(to_tsvector('english', concat_ws(' ', a.name, c.names)), 'A')
                      || setweight(to_tsvector('english', concat_ws(' ', a.description, c.descs)), 'B'),
         execution_count = coalesce(s.completed, 0)::int
       FROM (SELECT agent_id, string_agg(name, ' ' ORDER BY position) AS names, string_agg(description, ' ' ORDER BY position) AS descs
               FROM agent_capabilities GROUP BY agent_id) c
       LEFT JOIN (SELECT providing_agent_id AS agent_id, count(*) AS completed FROM transactions GROUP BY 1) s ON s.agent_id = c.agent_id
       WHERE a.id = c.agent_id`,
    );

    await timed(`${deferred.length} secondary indexes`, async () => {
      for (const ix of deferred) await db.query(ix.def);
    });
    await db.query(`RESET session_replication_role`);
    // Statistics first, as a live database has them: without, the backfill's per-agent subqueries can take
    // plans that scan a whole table per agent (min(base_price) along the price index ran for tens of minutes).
    await step('analyze', `ANALYZE`);
    await timed(`migrations from ${before} (their backfill)`, () => migrate(url, MIGRATIONS));

    // What reputation_apply records for a failure: an event, and the agent's count (set, not added: nothing else counted them).
    await step(
      'reputation_events',
      `INSERT INTO reputation_events (agent_id, type, delta, score, ref_id, created_at)
       SELECT agent_id, 'execution.failed', -2, score, 'req_x' || substr(md5('fail:' || k), 1, 19), at FROM fails ORDER BY at`,
    );
    await step(
      'agent_stats.failed',
      `INSERT INTO agent_stats AS s (agent_id, failed) SELECT agent_id, count(*) FROM fails GROUP BY agent_id
       ON CONFLICT (agent_id) DO UPDATE SET failed = EXCLUDED.failed`,
    );
    // The console's series, as the worker's roll-up builds them from a database that had none (batches of 100k rows).
    await timed('series roll-up (series_ingest)', async () => {
      for (;;) {
        const [r] = (await db.query(`SELECT * FROM series_ingest(0, 100000)`)).rows;
        if (r.executions === 0 && r.transactions === 0) return;
      }
    });
    await step('vacuum analyze', `VACUUM ANALYZE`);
    const { rows } = await db.query(
      `SELECT pg_temp.agent_id(1) AS id, (SELECT count(*) FROM transactions WHERE providing_agent_id = pg_temp.agent_id(1))::int AS n`,
    );
    return {
      url,
      hotAgentId: rows[0].id,
      hotTransactions: rows[0].n,
      failed: F,
      ms: Math.round(performance.now() - t0),
      steps,
    };
  } finally {
    await db.end();
  }
}
