/* npm run bench:schema: the bounds of agent-supplied JSON Schema validation (@app/json-schema).
     (a) corpus   every adversarial schema/value pair of schema-corpus.ts (schemas within the caps,
                  values under the 1 MiB body limit), validated SCHEMA_BENCH_RUNS times after one
                  warm-up: max and p99 of all validation times (target < 50 ms); the compile cost
                  of the largest schemas the caps allow (registration check, first use)
     (b) api      the real api in-process on loopback (own database, own Redis prefix): an agent
                  registered with hostile input schemas, hostile unpaid POST /api/v1/execute
                  requests on SCHEMA_BENCH_CONNECTIONS connections for SCHEMA_BENCH_SECONDS, with
                  bodies of at most 20 KiB then near 1 MiB, and GET /api/v1/health every 20 ms
                  meanwhile: its latency (target max < 100 ms); a capability without schema with
                  the same big bodies shows what the request pipeline costs besides validation
     (c) flood    on that api, issue 29's budget-check flood with /health/live probed (schema-bench-flood.ts)
   Needs Postgres and Redis on localhost (as the tests do). Figures go into docs/performance.md. */
import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { buildDataSourceOptions } from '@app/database';
import { SchemaValidator, WORK_BUDGET } from '@app/json-schema';
import { createApiApp } from '../../apps/api/src/app.factory';
import { x402Header } from '../support/x402';
import { schemaCorpus } from './schema-corpus';
import { compileCorpus, hostileCapabilities } from './schema-corpus-caps';
import { budgetCheckFlood } from './schema-bench-flood';
import { fmt, ms, pct, sleep, table } from './schema-bench-lib';

const RUNS = Number(process.env.SCHEMA_BENCH_RUNS ?? 10);
const SECONDS = Number(process.env.SCHEMA_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.SCHEMA_BENCH_CONNECTIONS ?? 1);
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const DB = 'agora_schema_bench';
const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
/** A full collection between cases (not before each run: V8 sweeps after it, which would be billed to the run). */
const gc = runInNewContext('gc') as () => void;

function corpus(): void {
  const v = new SchemaValidator();
  const all: number[] = [];
  const rows: string[][] = [];
  for (const c of schemaCorpus()) {
    if (process.env.SCHEMA_BENCH_CASES && !c.name.includes(process.env.SCHEMA_BENCH_CASES)) continue;
    gc();
    const problem = v.schemaProblem(c.schema);
    if (problem) throw new Error(`corpus schema "${c.name}" is refused: ${problem}`);
    const json = JSON.stringify(c.value());
    if (json.length > MiB) throw new Error(`corpus value "${c.name}" is over 1 MiB (${json.length})`);
    const value = JSON.parse(json) as unknown;
    let result = v.validate('bench', c.schema, value);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = process.hrtime.bigint();
      result = v.validate('bench', c.schema, value);
      times.push(ms(t0));
    }
    all.push(...times);
    times.sort((a, b) => a - b);
    const outcome =
      result.length === 0
        ? 'valid'
        : result[0].message.startsWith('validation stopped') || result[0].message.startsWith('value ')
          ? 'stopped'
          : 'invalid';
    rows.push([
      c.name,
      (json.length / 1024).toFixed(0),
      outcome,
      fmt(pct(times, 50)),
      fmt(times[times.length - 1]),
      (v.lastWorkUnits / 1e6).toFixed(1),
    ]);
  }
  process.stdout.write(
    `(a) validation of ${rows.length} adversarial pairs, ${RUNS} runs each after a warm-up (work budget ${WORK_BUDGET / 1e6}M units)\n\n`,
  );
  table(['case', 'KiB', 'result', 'p50 ms', 'max ms', 'units M'], rows);
  all.sort((a, b) => a - b);
  const max = all[all.length - 1];
  process.stdout.write(
    `all ${all.length} validations: p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms, max ${max.toFixed(1)} ms (target < 50 ms: ${max < 50 ? 'met' : 'NOT met'})\n\n`,
  );

  const compileRows: string[][] = [];
  for (const c of compileCorpus()) {
    const reg: number[] = [];
    const first: number[] = [];
    for (let i = 0; i < 3; i++) {
      const schema = { ...c.schema, $comment: `run ${i}` };
      let t0 = process.hrtime.bigint();
      const problem = v.schemaProblem(schema);
      reg.push(ms(t0));
      if (problem) throw new Error(`compile corpus "${c.name}" is refused: ${problem}`);
      t0 = process.hrtime.bigint();
      v.validate(`compile-${i}`, schema, c.invalid);
      first.push(ms(t0));
    }
    compileRows.push([
      c.name,
      (JSON.stringify(c.schema).length / 1024).toFixed(1),
      fmt(Math.max(...reg)),
      fmt(Math.max(...first)),
    ]);
  }
  process.stdout.write('compile cost of the largest schemas the caps allow (max of 3; each a cache miss)\n\n');
  table(['schema', 'KiB', 'registration check ms', 'first invalid value ms'], compileRows);
}

async function startApi(): Promise<{ app: INestApplication; url: string }> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${DB}`;
  const migrator = new DataSource(buildDataSourceOptions({ url: dbUrl.toString(), poolSize: 1 }));
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'each' });
  await migrator.destroy();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    QUEUE_PREFIX: `sb${randomBytes(4).toString('hex')}`,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // Hostile requests must reach input validation, not the rate limiter in front of it.
    RATE_LIMIT_CLIENT_PER_MIN: '1000000',
    RATE_LIMIT_AGENT_PER_MIN: '1000000',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

async function registerHostileAgent(url: string): Promise<string> {
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const pay = await x402Header(owner, { amount: 100_000n, payTo: loadConfig({ NODE_ENV: 'test' }).platformWallet });
  const res = await fetch(`${url}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [pay.name]: pay.value },
    body: JSON.stringify({
      wallet: owner.address,
      name: 'Hostile schemas',
      description: 'Input schemas built to be slow to validate',
      capabilities: hostileCapabilities().map((h) => ({
        id: h.id,
        name: h.id,
        description: h.id,
        inputSchema: h.schema,
        pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
      })),
      endpoints: { execution: 'http://127.0.0.1:9/execute' },
    }),
  });
  const body = (await res.json()) as { data?: { id: string } };
  if (res.status !== 201 || !body.data)
    throw new Error(`registration answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return body.data.id;
}

/** GET /api/v1/health every 20 ms for `seconds`: sorted latencies. */
async function probe(url: string, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${url}/api/v1/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
    out.push(ms(t0));
    await sleep(20);
  }
  return out.sort((a, b) => a - b);
}

const healthRow = (label: string, t: number[]) => [
  label,
  String(t.length),
  fmt(pct(t, 50)),
  fmt(pct(t, 99)),
  fmt(t[t.length - 1]),
];

/** Hostile executes of one size on CONNECTIONS connections while health is probed; the first of each compiles its schema and is sent (and timed) before. */
async function attack(url: string, agentId: string, size: 'small' | 'large'): Promise<number[]> {
  const bodies = hostileCapabilities().map((h) => ({
    id: h.id,
    body: JSON.stringify({ targetAgentId: agentId, capabilityId: h.id, input: h[size]() }),
  }));
  const post = async (body: string) => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${url}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    return { status: res.status, ms: ms(t0) };
  };
  const first = new Map<string, number>();
  for (const b of bodies) first.set(b.id, (await post(b.body)).ms);
  const times = new Map<string, number[]>(bodies.map((b) => [b.id, []]));
  const statuses = new Map<string, number>();
  let stop = false;
  const attacker = async (k: number): Promise<void> => {
    for (let i = k; !stop; i++) {
      const b = bodies[i % bodies.length];
      const r = await post(b.body);
      times.get(b.id)!.push(r.ms);
      statuses.set(
        `${b.id.startsWith('control') ? 'control ' : ''}${r.status}`,
        (statuses.get(`${b.id.startsWith('control') ? 'control ' : ''}${r.status}`) ?? 0) + 1,
      );
    }
  };
  const attackers = Array.from({ length: CONNECTIONS }, (_, k) => attacker(k));
  const health = await probe(url, SECONDS);
  stop = true;
  await Promise.all(attackers);
  const kib = Math.max(...bodies.map((b) => b.body.length)) / 1024;
  process.stdout.write(
    `${size} bodies (up to ${kib.toFixed(0)} KiB): statuses ${[...statuses].map(([k, n]) => `${k} x ${n}`).join(', ')}\n\n`,
  );
  table(
    ['hostile request', 'KiB', 'first ms', 'count', 'p50 ms', 'max ms'],
    bodies.map((b) => {
      const t = times.get(b.id)!.sort((x, y) => x - y);
      return [
        b.id,
        (b.body.length / 1024).toFixed(0),
        fmt(first.get(b.id)!),
        String(t.length),
        t.length ? fmt(pct(t, 50)) : '-',
        t.length ? fmt(t[t.length - 1]) : '-',
      ];
    }),
  );
  return health;
}

async function api(): Promise<void> {
  const { app, url } = await startApi();
  try {
    const agentId = await registerHostileAgent(url);
    process.stdout.write(
      `(b) api in-process: hostile unpaid POST /api/v1/execute on ${CONNECTIONS} connections for ${SECONDS} s per size, GET /api/v1/health every 20 ms\n\n`,
    );
    const idle = await probe(url, 3);
    const small = await attack(url, agentId, 'small');
    const large = await attack(url, agentId, 'large');
    table(
      ['/api/v1/health', 'probes', 'p50 ms', 'p99 ms', 'max ms'],
      [healthRow('idle', idle), healthRow('small hostile bodies', small), healthRow('large hostile bodies', large)],
    );
    for (const [label, t] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const max = t[t.length - 1];
      process.stdout.write(
        `health max under ${label} hostile bodies: ${max.toFixed(1)} ms (target < 100 ms: ${max < 100 ? 'met' : 'NOT met'})\n`,
      );
    }
    if (process.env.SCHEMA_BENCH_FLOOD !== '0') await budgetCheckFlood(url);
  } finally {
    await app.close();
    const admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const only = process.env.SCHEMA_BENCH_ONLY;
  if (!only || only === 'corpus') corpus();
  if (!only || only === 'api') await api();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
