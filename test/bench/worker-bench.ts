/* Async throughput through the worker (the execute bench, test/bench/bench.ts, runs no worker: its
   async scenario measures the 202 only). `node -r @swc-node/register test/bench/worker-bench.ts`:
   RUNS async executions are accepted with the worker stopped, then the worker (the built bundle,
   WORKER_DIST, default dist/apps/worker/main.js: another build can be compared) is started and
   drains them; the rate is runs over the time from the first run completed to the last (the
   worker's boot left out). Runs on one agent (the per-agent cap binds: 2 at a time), and spread
   round-robin over AGENTS agents (it rarely does). ROUNDS rounds of each, interleaved; medians.
   WORKER_ENV: extra worker variables (e.g. WORKER_AGENT_CONCURRENCY=0). Then the webhook timings
   (worker-bench-webhooks.ts: relay latency, retry lateness; WORKER_BENCH_WEBHOOKS=0 leaves them out). */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory';
import { startTranslatorAgent } from '../../examples/translator-agent';
import { freshDatabase, spawnRole, stopRoles, x402V1Header } from './bench-lib';
import { webhookTimings } from './worker-bench-webhooks';

const DB = 'agora_worker_bench';
const DB_URL = `postgres://postgres@127.0.0.1:5432/${DB}`;
const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PLATFORM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RUNS = Number(process.env.RUNS ?? 1000);
const AGENTS = Number(process.env.AGENTS ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
// One prefix for the bench and its roles (the api role is this file run again).
const PREFIX = (process.env.WBENCH_PREFIX ??= `wbench${Date.now()}`);
const ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: DB_URL,
  DATABASE_POOL_SIZE: '20',
  QUEUE_PREFIX: PREFIX,
  OUTBOUND_ALLOW_HTTP: 'true',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_CLIENT_PER_MIN: '100000000',
  RATE_LIMIT_AGENT_PER_MIN: '100000000',
};

async function roleApi(): Promise<string> {
  const app = await createApiApp(loadConfig(ENV));
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

async function register(apiUrl: string, agentUrl: string, n: number, owners: Wallet[] = []): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const owner = owners[i] ?? new Wallet(Wallet.createRandom().privateKey);
    const res = await fetch(`${apiUrl}/api/v1/agents`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-payment': x402V1Header(owner, 100_000n, { usdc: USDC, payTo: PLATFORM }),
      },
      body: JSON.stringify({
        wallet: owner.address,
        name: `Bench ${i}`,
        capabilities: [
          {
            id: 'translate',
            name: 'Translate',
            description: 'Upper-cases text',
            pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
          },
        ],
        endpoints: { execution: agentUrl },
      }),
    });
    ids.push(((await res.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}

/** Accepts RUNS async executions on `agents` (round-robin), 50 requests at a time; answers their ids. */
async function accept(apiUrl: string, agents: string[]): Promise<string[]> {
  const payers = Array.from({ length: 8 }, () => new Wallet(Wallet.createRandom().privateKey));
  const ids: string[] = [];
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < RUNS) {
      const i = next++;
      const res = await fetch(`${apiUrl}/api/v1/execute?async=true`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payment': x402V1Header(payers[i % payers.length], 11_000n, { usdc: USDC, payTo: PLATFORM }),
        },
        body: JSON.stringify({
          targetAgentId: agents[i % agents.length],
          capabilityId: 'translate',
          input: { text: `run ${i}` },
        }),
      });
      if (res.status !== 202) throw new Error(`execute answered ${res.status}: ${await res.text()}`);
      ids.push(((await res.json()) as { data: { jobId: string } }).data.jobId);
    }
  };
  await Promise.all(Array.from({ length: 50 }, one));
  return ids;
}

/** The built worker with ENV, WORKER_ENV and `more`. */
function startWorker(more: Record<string, string> = {}): ChildProcess {
  const dist = process.env.WORKER_DIST ?? join(__dirname, '..', '..', 'dist', 'apps', 'worker', 'main.js');
  const extra = Object.fromEntries(
    (process.env.WORKER_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  return spawn(process.execPath, [dist], {
    env: { PATH: process.env.PATH ?? '', ...ENV, ...extra, ...more },
    stdio: 'inherit',
  });
}

/** Starts the worker, waits until every run of `ids` is completed; answers runs per second between the first and the last completion. */
async function drain(pg: Client, ids: string[]): Promise<number> {
  const worker = startWorker();
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const [row] = (
        await pg.query(
          `SELECT count(*)::int AS done, min(completed_at) AS first, max(completed_at) AS last FROM executions WHERE id = ANY($1) AND status = 'completed'`,
          [ids],
        )
      ).rows;
      if (row.done === ids.length)
        return Math.round(((ids.length - 1) * 1000) / (new Date(row.last).getTime() - new Date(row.first).getTime()));
      if (Date.now() > deadline) throw new Error(`only ${row.done} of ${ids.length} runs completed`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await new Promise((resolve) => (worker.once('exit', resolve), worker.kill('SIGTERM')));
  }
}

async function main(): Promise<void> {
  await freshDatabase(DB);
  const agent = await spawnRole(__filename, 'agent');
  const api = await spawnRole(__filename, 'api');
  const pg = new Client({ connectionString: DB_URL });
  await pg.connect();
  try {
    const agents = await register(api.url, agent.url, AGENTS);
    const scenarios = { '1 agent': agents.slice(0, 1), [`${AGENTS} agents`]: agents };
    const results = new Map<string, number[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, targets] of Object.entries(scenarios)) {
        const ids = await accept(api.url, targets);
        const rate = await drain(pg, ids);
        results.set(name, [...(results.get(name) ?? []), rate]);
        process.stdout.write(`round ${round}: ${name}: ${rate} runs/s\n`);
      }
    }
    process.stdout.write(
      `\n${RUNS} async runs drained by one worker (${process.env.WORKER_ENV ?? 'defaults'}); median of ${ROUNDS} rounds\n\n| scenario | runs/s | by round |\n|---|---|---|\n`,
    );
    for (const [name, rates] of results) {
      const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];
      process.stdout.write(`| ${name} | ${median} | ${rates.join(' / ')} |\n`);
    }
    if (process.env.WORKER_BENCH_WEBHOOKS !== '0') {
      const owners = [0, 1].map(() => new Wallet(Wallet.createRandom().privateKey));
      const [relayed, retried] = await register(api.url, agent.url, 2, owners);
      await webhookTimings({ apiUrl: api.url, pg, owners, agents: [relayed, retried] }, startWorker);
    }
  } finally {
    await pg.end();
    await stopRoles([agent.child, api.child]);
  }
  process.exit(0);
}

async function role(name: string): Promise<string> {
  process.once('SIGINT', () => process.exit(0));
  if (name === 'agent') return (await startTranslatorAgent({ keepCalls: false })).url;
  if (name === 'api') return roleApi();
  throw new Error(`unknown role ${name}`);
}

(process.argv[2] ? role(process.argv[2]).then((url) => process.stdout.write(`READY ${url}\n`)) : main()).catch(
  (err) => {
    process.stderr.write(`worker bench failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
