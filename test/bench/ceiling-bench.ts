/* npm run bench:ceiling: what one Postgres and more api processes take (docs/scaling.md).
     charge-shaped  pgbench: one transaction shaped like a charge (ledger_post with a world, a revenue
                    and an agent escrow leg, three row inserts, COMMIT) at 1-64 clients, on the hot
                    rows (one row per platform account, as before migration LedgerShards) and on 16
                    shards (the shard picked per transaction), in alternation.
     sync execute   POST /api/v1/execute (local settlement) from 50 connections over 8 agents through
                    1, 2 and 4 api processes (the connections split evenly, each process its own pool
                    of 20), with LEDGER_SHARDS=1 (the hot rows) and 16; every invariant is checked after.
   BENCH_PGBENCH_SECONDS (10), BENCH_PGBENCH_CLIENTS (1,4,16,32,64), BENCH_SECONDS (5), BENCH_ROUNDS (3),
   BENCH_APIS (1,2,4), BENCH_SHARDS (1,16), BENCH_ONLY (pgbench | execute). */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freshDatabase } from './bench-lib';
import { measureExecute } from './ceiling-bench-execute';

const PG_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 10);
const only = (part: string) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === part;
const list = (v: string | undefined, d: string) => (v ?? d).split(',').map(Number);

const charge = (world: string, revenue: string) => `\\set a random(1, 1000)
\\set k random(0, 15)
BEGIN;
SELECT ledger_post(gen_random_uuid(), 'bench.charge', gen_random_uuid()::text, '{}'::jsonb,
  ARRAY[${world}, ${revenue}, 'agent:' || (:a)::text || ':escrow'], ARRAY['world', 'revenue', 'escrow'],
  ARRAY[NULL, NULL, (:a)::text], ARRAY[NULL, 0, 0]::bigint[], ARRAY[NULL, NULL, NULL]::bigint[],
  ARRAY[-11000, 1550, 9450]::bigint[]);
INSERT INTO bench_rows (payload) SELECT 'charge row ' || i FROM generate_series(1, 3) i;
COMMIT;
`;

async function pgbenchPart(): Promise<void> {
  const url = await freshDatabase('agora_ceiling');
  const pg = new Client({ connectionString: url });
  await pg.connect();
  // Every account the script takes exists before it runs (as an agent's accounts are opened at registration).
  await pg.query(`CREATE TABLE bench_rows (id bigserial PRIMARY KEY, payload text NOT NULL)`);
  await pg.query(`INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance)
    VALUES (gen_random_uuid(), 'world:chain', 'world', NULL, NULL), (gen_random_uuid(), 'platform:revenue', 'revenue', NULL, 0)`);
  await pg.query(`INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance)
    SELECT gen_random_uuid(), 'agent:' || a || ':escrow', 'escrow', a::text, 0 FROM generate_series(1, 1000) a`);
  await pg.end();
  const dir = mkdtempSync(join(tmpdir(), 'ceiling-'));
  const file = (name: string) => join(dir, `${name.replace(' ', '-')}.sql`);
  const scripts = {
    'hot rows': charge(`'world:chain'`, `'platform:revenue'`),
    '16 shards': charge(`'world:chain:' || (:k)::text`, `'platform:revenue:' || (:k)::text`),
  };
  for (const [name, sql] of Object.entries(scripts)) writeFileSync(file(name), sql);
  const clients = list(process.env.BENCH_PGBENCH_CLIENTS, '1,4,16,32,64');
  process.stdout.write(`\ncharge-shaped transaction (pgbench, ${PG_SECONDS} s per cell)\n\n`);
  process.stdout.write(`| clients | hot rows (tps) | 16 shards (tps) | ratio |\n|---|---|---|---|\n`);
  for (const c of clients) {
    const tps: Record<string, number> = {};
    for (const name of Object.keys(scripts)) {
      const out = execFileSync(
        'pgbench',
        ['-n', '-c', String(c), '-j', String(Math.min(c, 2)), '-T', String(PG_SECONDS)].concat(['-f', file(name), url]),
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      tps[name] = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)![1]);
    }
    const [hot, sharded] = [tps['hot rows'], tps['16 shards']];
    process.stdout.write(`| ${c} | ${Math.round(hot)} | ${Math.round(sharded)} | ${(sharded / hot).toFixed(2)} |\n`);
  }
}

async function main(): Promise<void> {
  if (only('pgbench')) await pgbenchPart();
  if (only('execute'))
    await measureExecute({
      apis: list(process.env.BENCH_APIS, '1,2,4'),
      shards: list(process.env.BENCH_SHARDS, '1,16'),
      seconds: Number(process.env.BENCH_SECONDS ?? 5),
      rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    });
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
