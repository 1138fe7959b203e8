/* Seeding for npm run bench:scale: N agents (3 capabilities each) and M charged executions, set-based
   (INSERT ... SELECT generate_series), deterministic: every random choice is a hash of the row's index
   and a salt (pg_temp.rnd), so a size always seeds the same rows (timestamps are relative to now()).
   Triggers are off for the session while loading (session_replication_role = replica); the rollups
   they keep (agent_stats, agent_latency, platform_stats) are then filled with the migration's own
   backfill statements (1763960000000-Reputation.ts), failures added to agent_stats.failed. */
import { Client } from 'pg';

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
export const VERBS = [
  'translate',
  'summarize',
  'transcribe',
  'classify',
  'extract',
  'detect',
  'generate',
  'analyze',
  'convert',
  'review',
  'forecast',
  'ocr',
  'caption',
  'moderate',
  'search',
  'tag',
  'compare',
  'validate',
  'redact',
  'score',
];
export const OBJECTS = [
  'french',
  'pdf',
  'image',
  'sentiment',
  'code',
  'audio',
  'weather',
  'stock',
  'spanish',
  'german',
  'japanese',
  'english',
  'text',
  'video',
  'invoice',
  'email',
  'contract',
  'news',
  'receipt',
  'chart',
  'table',
  'json',
  'csv',
  'speech',
  'document',
  'resume',
  'product',
  'price',
  'crypto',
  'tweet',
];
const PREFIXES = ['Swift', 'Nova', 'Polyglot', 'Atlas', 'Echo', 'Quill', 'Lumen', 'Vector', 'Orbit', 'Sage', 'Pixel', 'Relay'];
const SUFFIXES = ['Agent', 'Bot', 'Pro', 'AI', 'Assistant', 'Service'];
const TAGLINES = [
  'Fast, accurate and priced per request.',
  'Built for production workloads with low latency.',
  'Reliable results in seconds.',
  'Handles large inputs and returns structured JSON.',
  'Trusted by hundreds of agents.',
];
const CHAIN_SETTINGS = JSON.stringify({ chain_enabled: true, chain_max_depth: 5, chain_allowed_callers: [], chain_blocked_callers: [] });
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

export async function seed(url: string, o: SeedOptions): Promise<SeedResult> {
  if (o.agents < 2 || o.executions < 10) throw new Error('scale-seed: at least 2 agents and 10 executions');
  const db = new Client({ connectionString: url });
  await db.connect();
  const steps: Record<string, number> = {};
  const t0 = performance.now();
  const step = async (name: string, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    const r = await db.query(sql, params);
    steps[name] = Math.round(performance.now() - t);
    o.log?.(`    ${name}: ${r.rowCount ?? 0} rows, ${steps[name]} ms`);
    return r;
  };
  const N = o.agents;
  const M = o.executions;
  const F = Math.round(M * 0.05);
  try {
    await db.query(`SET session_replication_role = replica`); // no triggers (nor FK checks) while loading
    await db.query(`SET work_mem = '256MB'`);
    await db.query(`SET maintenance_work_mem = '512MB'`);
    await db.query(`SET synchronous_commit = off`);
    for (const sql of HELPERS) await db.query(sql);

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

    // ~5% more executions that failed: a reputation event each (and an executions row, below).
    await step(
      'failures (temp)',
      `CREATE TEMP TABLE fails AS
       SELECT k, c.agent_id, c.capability_id, c.base_price, a.reputation_score AS score, now() - interval '90 days' * pg_temp.rnd(k, 52) AS at,
              '0x' || substr(md5('payer:' || k % ${PAYERS}) || md5('payer+' || k % ${PAYERS}), 1, 40) AS payer
         FROM generate_series(1, ${F}) k
         JOIN agent_capabilities c ON c.agent_id = pg_temp.provider(k, ${N}, 51) AND c.position = 0
         JOIN agents a ON a.id = c.agent_id`,
    );
    await step(
      'reputation_events',
      `INSERT INTO reputation_events (agent_id, type, delta, score, ref_id, created_at)
       SELECT agent_id, 'execution.failed', -2, score, 'req_x' || substr(md5('fail:' || k), 1, 19), at FROM fails ORDER BY at`,
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

    // The migration's backfill, then the failures (what reputation_apply would have counted).
    await step(
      'agent_stats',
      `INSERT INTO agent_stats (agent_id, completed, gross, platform_fees, net, time_sum_ms)
       SELECT providing_agent_id, count(*), sum(gross_amount), sum(platform_fee + platform_cut), sum(agent_earnings), sum(execution_time_ms)
         FROM transactions GROUP BY providing_agent_id`,
    );
    await step(
      'agent_stats.failed',
      `INSERT INTO agent_stats AS s (agent_id, failed) SELECT agent_id, count(*) FROM fails GROUP BY agent_id
       ON CONFLICT (agent_id) DO UPDATE SET failed = s.failed + EXCLUDED.failed`,
    );
    await step(
      'agent_latency',
      `INSERT INTO agent_latency (agent_id, bucket_ms, n)
       SELECT providing_agent_id, latency_bucket(execution_time_ms), count(*) FROM transactions GROUP BY 1, 2`,
    );
    await step(
      'platform_stats',
      `UPDATE platform_stats p SET transactions = t.n, volume = t.v
         FROM (SELECT stats_shard(providing_agent_id) AS shard, count(*) AS n, sum(gross_amount) AS v FROM transactions GROUP BY 1) t WHERE p.shard = t.shard`,
    );
    await step(
      'platform_stats (agents)',
      `UPDATE platform_stats p SET agents = a.n, active_agents = a.active
         FROM (SELECT stats_shard(id) AS shard, count(*) AS n, count(*) FILTER (WHERE status = 'active') AS active FROM agents GROUP BY 1) a WHERE p.shard = a.shard`,
    );

    // refreshSearch (libs/agents/src/agents.repository.ts) for every agent at once; execution_count = its completed executions.
    await step(
      'search + execution_count',
      `UPDATE agents a SET
         search_text = lower(concat_ws(' ', a.name, a.description, c.names, c.descs)),
         search_vector = setweight(to_tsvector('english', concat_ws(' ', a.name, c.names)), 'A')
                      || setweight(to_tsvector('english', concat_ws(' ', a.description, c.descs)), 'B'),
         execution_count = coalesce(s.completed, 0)
       FROM (SELECT agent_id, string_agg(name, ' ' ORDER BY position) AS names, string_agg(description, ' ' ORDER BY position) AS descs
               FROM agent_capabilities GROUP BY agent_id) c
       LEFT JOIN agent_stats s ON s.agent_id = c.agent_id
       WHERE a.id = c.agent_id`,
    );

    await db.query(`RESET session_replication_role`);
    await step('vacuum analyze', `VACUUM ANALYZE`);
    const { rows } = await db.query(`SELECT pg_temp.agent_id(1) AS id, (SELECT completed FROM agent_stats WHERE agent_id = pg_temp.agent_id(1))::int AS n`);
    return { hotAgentId: rows[0].id, hotTransactions: rows[0].n, failed: F, ms: Math.round(performance.now() - t0), steps };
  } finally {
    await db.end();
  }
}
