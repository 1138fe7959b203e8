/* npm run bench:scale: latency of the read routes as the data grows. For each size (agents:executions,
   SCALE_SIZES=1000:10000,10000:100000,100000:1000000 by default): a fresh database with every migration,
   seeded set-based (scale-seed.ts: agents with 3 capabilities each, charged executions over the last 90
   days, a tenth of them for one hot agent, 5% more that failed), then the api (local settlement, in its
   own process) and each route measured in turn over one keep-alive connection: SCALE_WARMUP unreported
   requests (20; at least 3, at most a tenth of the route's budget), then SCALE_REQUESTS (200), or fewer
   if a route takes longer than SCALE_ROUTE_SECONDS (60; at least 20 requests). Every status is checked:
   non-2xx answers are counted and shown (a route that does not exist yet answers 404). The table (p50 /
   p95 ms per size, and the p95 growth per 10x of executions between the last two sizes) is printed and
   written to .tmp/bench-scale.md. One run at a time: a second one waits (an advisory lock).
   SCALE_DB names the database (agora_bench_scale); SCALE_KEEP=1 keeps the largest; SCALE_API=dist runs
   dist/apps/api/main.js (npm run build) instead of the sources; SCALE_EXECUTION_ROWS=0 leaves the
   executions table empty; SCALE_DEBUG=1 prints each route's first answer. */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { Client as PgClient } from 'pg';
import { Client as HttpClient } from 'undici';
import { id as keccakText, Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory';
import { spawnRole, stopRoles } from './bench-lib';
import { SeedResult, seedDatabase } from './scale-seed';
import {
  WARMUP,
  REQUESTS,
  ROUTE_BUDGET_MS,
  MIN_REQUESTS,
  Route,
  Result,
  measure,
  statuses,
  cell,
  sourceStamp,
} from './scale-bench-measure';

const DB = process.env.SCALE_DB ?? 'agora_bench_scale';
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(DB)) throw new Error(`SCALE_DB: not a plain database name: ${DB}`);
/** The hot agent's wallet: a fixed key, so the bench can sign its history requests. */
const HOT_WALLET = new Wallet(keccakText('agora scale bench: the hot agent'));
/** The page offset the api accepts at most (PageQueryDto). */
const MAX_OFFSET = 1_000_000;
const PHRASES = [
  'translate this text to french',
  'summarize a long pdf report',
  'transcribe an audio recording',
  'analyze the sentiment of customer reviews',
  'extract tables from an invoice',
  'ocr a scanned image',
  'review my code for bugs',
  'forecast the weather',
];

/** What the api process is told: a local-settlement api on the bench database, rate limits out of the way. */
function apiEnv(dbUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '10',
    QUEUE_PREFIX: `scalebench${Date.now()}`,
    SETTLEMENT_MODE: 'local',
    RATE_LIMIT_CLIENT_PER_MIN: '100000000',
    RATE_LIMIT_AGENT_PER_MIN: '100000000',
    RATE_LIMIT_READS_PER_MIN: '100000000',
    RATE_LIMIT_CATALOG_PER_MIN: '100000000',
  };
}

type Size = { agents: number; executions: number; label: string };

const compact = (n: number) =>
  n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n);

function sizes(): Size[] {
  return (process.env.SCALE_SIZES ?? '1000:10000,10000:100000,100000:1000000')
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [agents, executions] = pair.split(':').map(Number);
      if (!Number.isInteger(agents) || !Number.isInteger(executions) || agents < 2 || executions < 10)
        throw new Error(`SCALE_SIZES: bad pair "${pair}" (agents:executions)`);
      return { agents, executions, label: `${compact(agents)} agents / ${compact(executions)} tx` };
    });
}

/** `days` days before now, for a series' `from`. */
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

function routes(hot: string, deepOffset: number): Route[] {
  const signed = async () => {
    const message = `agora-auth:${hot}:${Date.now()}`;
    return {
      'x-agent-wallet': HOT_WALLET.address,
      'x-agent-signature': `${message}:sig:${await HOT_WALLET.signMessage(message)}`,
    };
  };
  return [
    { name: 'GET /analytics/agent/:hot?period=all', path: () => `/api/v1/analytics/agent/${hot}?period=all` },
    { name: 'GET /analytics/agent/:hot?period=week', path: () => `/api/v1/analytics/agent/${hot}?period=week` },
    {
      name: 'GET /analytics/agent/:hot/series?bucket=day (90 days)',
      path: () => `/api/v1/analytics/agent/${hot}/series?bucket=day&from=${ago(90)}`,
    },
    {
      name: 'GET /analytics/platform/series?bucket=hour (30 days)',
      path: () => `/api/v1/analytics/platform/series?bucket=hour&from=${ago(30)}`,
    },
    { name: 'GET /reputation/leaderboard?limit=10', path: () => `/api/v1/reputation/leaderboard?limit=10` },
    {
      name: 'GET /discover?capability=translate&limit=20',
      path: () => `/api/v1/discover?capability=translate&limit=20`,
    },
    {
      name: 'GET /discover/recommend?query=… (8 phrases)',
      path: (i) => `/api/v1/discover/recommend?query=${encodeURIComponent(PHRASES[i % PHRASES.length])}`,
    },
    { name: 'GET /payments/stats', path: () => `/api/v1/payments/stats` },
    {
      name: 'GET /x402/discovery/search?query=… (8 phrases)',
      path: (i) => `/x402/discovery/search?query=${encodeURIComponent(PHRASES[i % PHRASES.length])}`,
    },
    { name: 'GET /x402/discovery/resources?limit=20', path: () => `/x402/discovery/resources?limit=20` },
    {
      name: 'GET /x402/discovery/resources?limit=20 (pages from offset 1000)',
      path: (i) => `/x402/discovery/resources?limit=20&offset=${1000 + 20 * i}`,
    },
    { name: 'GET /.well-known/x402', path: () => `/.well-known/x402` },
    {
      name: 'GET /payments/history/:hot?limit=20&offset=0',
      path: () => `/api/v1/payments/history/${hot}?limit=20&offset=0`,
      headers: signed,
    },
    {
      name: 'GET /payments/history/:hot?limit=20 (offset 80% of its tx)',
      path: () => `/api/v1/payments/history/${hot}?limit=20&offset=${deepOffset}`,
      headers: signed,
    },
  ];
}

/** A free local port, for the dist api (it listens on PORT). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

async function startApi(dbUrl: string): Promise<{ url: string; child: ChildProcess }> {
  if (process.env.SCALE_API !== 'dist') return spawnRole(__filename, 'api', { SCALE_DB_URL: dbUrl });
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/apps/api/main.js'], {
    env: { ...process.env, ...apiEnv(dbUrl), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`dist api exited with ${child.exitCode} (npm run build first?)`);
    if (await fetch(`${url}/api/v1/health`).catch(() => null)) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('dist api did not answer within 60 s');
}

async function dropDatabase(): Promise<void> {
  const admin = new PgClient({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.end();
}

async function benchSize(
  size: Size,
  keep: boolean,
): Promise<{ seeded: SeedResult; results: Map<string, Result>; deepOffset: number; apiStamp: number }> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`\n## ${size.label}`);
  const children: ChildProcess[] = [];
  // Interrupted (SIGINT, SIGTERM): the api stops and the database goes, as at the end of a size.
  const interrupted = () =>
    void stopRoles(children).then(() => (keep ? Promise.resolve() : dropDatabase()).finally(() => process.exit(130)));
  ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, interrupted));
  try {
    log('  seeding...');
    const seeded = await seedDatabase(DB, {
      agents: size.agents,
      executions: size.executions,
      hotWallet: HOT_WALLET.address,
      executionRows: process.env.SCALE_EXECUTION_ROWS !== '0',
      log,
    });
    log(
      `  seeded in ${(seeded.ms / 1000).toFixed(1)} s (hot agent ${seeded.hotAgentId}: ${seeded.hotTransactions} transactions; ${seeded.failed} failed executions)`,
    );
    const apiStamp = sourceStamp();
    const api = await startApi(seeded.url);
    children.push(api.child);
    const deepOffset = Math.min(Math.floor(seeded.hotTransactions * 0.8), MAX_OFFSET);
    const http = new HttpClient(api.url, { pipelining: 1 });
    const results = new Map<string, Result>();
    try {
      for (const route of routes(seeded.hotAgentId, deepOffset)) {
        const r = await measure(http, route);
        results.set(route.name, r);
        log(
          `  ${route.name}: ${cell(r)} ms over ${r.n} requests (${r.bytes} bytes)${Object.keys(r.non2xx).length ? `; non-2xx: ${statuses(r)}` : ''}`,
        );
      }
    } finally {
      await http.close();
    }
    return { seeded, results, deepOffset, apiStamp };
  } finally {
    ['SIGINT', 'SIGTERM'].forEach((signal) => process.off(signal, interrupted));
    await stopRoles(children);
    if (!keep) await dropDatabase();
  }
}

async function main(): Promise<void> {
  // This process loaded the migrations (and the seed) as it started; each size's api loads the sources as it starts.
  const loaded = sourceStamp();
  const list = sizes();
  // One run at a time on this Postgres (whatever its database): a second run waits for the first (held until exit).
  const lock = new PgClient({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await lock.connect();
  if (!(await lock.query(`SELECT pg_try_advisory_lock(hashtext('agora bench:scale')) AS ok`)).rows[0].ok) {
    process.stdout.write('another bench:scale run is going on; waiting for it to finish...\n');
    await lock.query(`SELECT pg_advisory_lock(hashtext('agora bench:scale'))`);
  }
  const runs: Awaited<ReturnType<typeof benchSize>>[] = [];
  for (const [i, size] of list.entries())
    runs.push(await benchSize(size, process.env.SCALE_KEEP === '1' && i === list.length - 1));

  const names = routes('', 0).map((r) => r.name);
  const [a, b] = [list.length - 2, list.length - 1];
  // p95 growth for 10x the executions between the last two sizes (normalised if their ratio is not 10).
  const decades = list.length > 1 ? Math.log10(list[b].executions / list[a].executions) : 0;
  const growth = (name: string) => {
    if (decades <= 0) return '-';
    const [x, y] = [runs[a].results.get(name), runs[b].results.get(name)];
    if (!x || !y || Number.isNaN(x.p95) || Number.isNaN(y.p95)) return '-';
    return `×${Math.pow(y.p95 / x.p95, 1 / decades).toFixed(2)}`;
  };
  const lines = [
    `| route | ${list.map((s) => `${s.label}: p50 / p95 (ms)`).join(' | ')} | growth per 10x (p95) |`,
    `|---|${list.map(() => '---|').join('')}---|`,
    ...names.map((name) => `| ${name} | ${runs.map((r) => cell(r.results.get(name))).join(' | ')} | ${growth(name)} |`),
  ];
  const changed = list.filter((_, i) => runs[i].apiStamp !== loaded).map((size) => size.label);
  const notes = [
    '',
    ...(changed.length
      ? [
          `WARNING: .ts files under apps/ or libs/ changed after the migrations were loaded (newest ${new Date(runs.at(-1)!.apiStamp).toISOString()}): the api of ${changed.join('; ')} ran newer sources.`,
        ]
      : []),
    `One keep-alive connection, requests one at a time: ${WARMUP} warm-up requests (a slow route: ${ROUTE_BUDGET_MS / 10000} s of them, at least 3), then ${REQUESTS} (fewer past ${ROUTE_BUDGET_MS / 1000} s a route, at least ${MIN_REQUESTS}); percentiles over 2xx answers.`,
    `Deep history offsets: ${runs.map((r, i) => `${list[i].label}: ${r.deepOffset}`).join('; ')}.`,
    `Seeding (set-based, then VACUUM ANALYZE): ${runs.map((r, i) => `${list[i].label}: ${(r.seeded.ms / 1000).toFixed(1)} s`).join('; ')}.`,
  ];
  const table = [...lines, ...notes].join('\n');
  process.stdout.write(`\n${table}\n`);
  mkdirSync('.tmp', { recursive: true });
  writeFileSync('.tmp/bench-scale.md', `${table}\n`);
  process.exit(0);
}

/** The api role (a child process): the sources, as bench.ts runs them. */
async function roleApi(): Promise<string> {
  const app = await createApiApp(loadConfig({ ...process.env, ...apiEnv(process.env.SCALE_DB_URL!) }));
  await app.listen(0, '127.0.0.1');
  process.once('SIGINT', () => process.exit(0));
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

(process.argv[2] === 'api' ? roleApi().then((url) => process.stdout.write(`READY ${url}\n`)) : main()).catch((err) => {
  process.stderr.write(`bench:scale failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
