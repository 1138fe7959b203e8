/* Fair shares across owners and payers (issue 52): how long another party's work waits behind an
   attack that holds the worker's slots with peers that never answer. `node -r @swc-node/register
   test/bench/fairness-bench.ts` (after `npm run build`: the worker is the built bundle). For each
   worker variant (before: WORKER_PARTY_CONCURRENCY=0 and WEBHOOK_PARTY_CONCURRENCY=0, the per-agent
   and per-host caps of issue 29 alone; after: the defaults), ROUNDS rounds of:
   - runs: a fast async run on another owner's agent, from request to completed, alone, then behind
     one owner's 9 silent agents (4 runs each), then behind 9 fresh owners' silent agents (4 runs
     each, a fresh payer each) on an agent whose owner has a paid record;
   - webhooks: a webhook (execution.completed) from a synchronous run to its receiver, alone, then
     behind 17 silent callback ports (3 callbacks each) of one payer's failed runs.
   Medians in milliseconds. The silent peers go away after each round (their runs fail, none charged). */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory';
import { startTranslatorAgent } from '../../examples/translator-agent';
import { walletHeaders } from '../support/wallets';
import { freshDatabase, spawnRole, stopRoles, x402V1Header } from './bench-lib';

const DB = 'agora_fairness_bench';
const DB_URL = `postgres://postgres@127.0.0.1:5432/${DB}`;
const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PLATFORM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PREFIX = (process.env.FBENCH_PREFIX ??= `fbench${Date.now()}`);
const ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: DB_URL,
  QUEUE_PREFIX: PREFIX,
  OUTBOUND_ALLOW_HTTP: 'true',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  ...Object.fromEntries(['CLIENT', 'AGENT', 'WRITES', 'READS'].map((w) => [`RATE_LIMIT_${w}_PER_MIN`, '100000000'])),
  // One run's agent fee from another wallet makes an owner funded (the default asks 5 USDC).
  WORKER_FUNDED_VOLUME_MICRO: '10000',
};
const VARIANTS: Record<string, Record<string, string>> = {
  before: { WORKER_PARTY_CONCURRENCY: '0', WEBHOOK_PARTY_CONCURRENCY: '0' },
  after: {},
};
const wallet = () => new Wallet(Wallet.createRandom().privateKey);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function roleApi(): Promise<string> {
  const app = await createApiApp(loadConfig(ENV));
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

/** An HTTP peer: answers `status` at once, or never (`silent`); `after(ms)`: when the first request at or after `ms` came (0: none). */
async function peer(mode: 'silent' | number) {
  const at: number[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      at.push(Date.now());
      if (mode !== 'silent') res.writeHead(mode).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`,
    hits: () => at.length,
    after: (ms: number) => at.find((t) => t >= ms) ?? 0,
    stop: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

class Bench {
  constructor(
    private readonly api: string,
    private readonly pg: Client,
  ) {}

  async register(endpoint: string, owner = wallet()): Promise<string> {
    const res = await fetch(`${this.api}/api/v1/agents`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-payment': x402V1Header(owner, 100_000n, { usdc: USDC, payTo: PLATFORM }),
      },
      body: JSON.stringify({
        wallet: owner.address,
        name: 'Bench',
        capabilities: [
          {
            id: 'translate',
            name: 'Translate',
            description: 'Upper-cases text',
            pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
          },
        ],
        endpoints: { execution: endpoint },
      }),
    });
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: { id: string } }).data.id;
  }

  async execute(
    payer: Wallet,
    agentId: string,
    o: { async?: boolean; callbackUrl?: string } = {},
  ): Promise<{ status: number; id: string }> {
    const res = await fetch(`${this.api}/api/v1/execute${o.async ? '?async=true' : ''}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-payment': x402V1Header(payer, 11_000n, { usdc: USDC, payTo: PLATFORM }),
      },
      body: JSON.stringify({
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'x' },
        callbackUrl: o.callbackUrl,
      }),
    });
    const body = (await res.json()) as { data?: { jobId?: string; requestId?: string } };
    return { status: res.status, id: body.data?.jobId ?? body.data?.requestId ?? '' };
  }

  /** A fresh owner's agent at `endpoint` whose execution.completed events go to `hookUrl`. */
  async subscribed(endpoint: string, hookUrl: string): Promise<string> {
    const owner = wallet();
    const agentId = await this.register(endpoint, owner);
    const res = await fetch(`${this.api}/api/v1/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(await walletHeaders(owner, agentId, 'POST /api/v1/webhooks')),
      },
      body: JSON.stringify({ agentId, url: hookUrl, events: ['execution.completed'] }),
    });
    if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${await res.text()}`);
    return agentId;
  }

  /** Milliseconds from the request to the run completed. */
  async fastRun(agentId: string): Promise<number> {
    const started = Date.now();
    const { id } = await this.execute(wallet(), agentId, { async: true });
    for (;;) {
      const { rows } = await this.pg.query(`SELECT status FROM executions WHERE id = $1`, [id]);
      if (rows[0]?.status === 'completed') return Date.now() - started;
      if (Date.now() - started > 120_000) throw new Error('the fast run never completed');
      await sleep(5);
    }
  }

  async untilEnded(ids: string[]): Promise<void> {
    for (;;) {
      const { rows } = await this.pg.query(
        `SELECT count(*)::int AS n FROM executions WHERE id = ANY($1) AND status = 'pending'`,
        [ids],
      );
      if (rows[0].n === 0) return;
      await sleep(100);
    }
  }
}

/** Until the worker has taken what it will of an attack: `all` calls (every slot), or `share` and nothing left waiting. */
async function inPlace(queue: Queue, hits: () => number, all: number, share: number): Promise<void> {
  for (;;) {
    if (hits() >= all || (hits() >= share && (await queue.getWaitingCount()) === 0)) return;
    await sleep(20);
  }
}

async function runsRound(b: Bench, queue: Queue, honest: string, funded: string): Promise<number[]> {
  const alone = await b.fastRun(honest);
  const out = [alone];
  for (const owners of ['one', 'nine'] as const) {
    const silent = await Promise.all(Array.from({ length: 9 }, () => peer('silent')));
    const owner = wallet();
    const agents = await Promise.all(silent.map((s) => b.register(s.url, owners === 'one' ? owner : wallet())));
    const ids = (
      await Promise.all(
        agents.flatMap((a) => {
          const payer = wallet();
          return [0, 1, 2, 3].map(() => b.execute(payer, a, { async: true }));
        }),
      )
    ).map((r) => r.id);
    const hits = () => silent.reduce((n, s) => n + s.hits(), 0);
    await inPlace(queue, hits, 16, owners === 'one' ? 4 : 12);
    out.push(await b.fastRun(owners === 'one' ? honest : funded));
    await Promise.all(silent.map((s) => s.stop()));
    await b.untilEnded(ids);
  }
  return out;
}

type Peer = Awaited<ReturnType<typeof peer>>;

async function webhooksRound(b: Bench, queue: Queue, victim: string, hook: Peer): Promise<number[]> {
  const out: number[] = [];
  for (const attack of [false, true]) {
    const ports = attack ? await Promise.all(Array.from({ length: 17 }, () => peer('silent'))) : [];
    if (attack) {
      const failing = await peer(500);
      const agents = await Promise.all(ports.map(() => b.register(failing.url)));
      const payer = wallet();
      await Promise.all(
        agents.flatMap((a, i) => [0, 1, 2].map(() => b.execute(payer, a, { callbackUrl: ports[i].url }))),
      );
      await inPlace(queue, () => ports.reduce((n, p) => n + p.hits(), 0), 32, 8);
    }
    const started = Date.now();
    await b.execute(wallet(), victim);
    while (!hook.after(started)) await sleep(5);
    out.push(hook.after(started) - started);
    await Promise.all(ports.map((p) => p.stop()));
  }
  return out;
}

function startWorker(extra: Record<string, string>) {
  const dist = process.env.WORKER_DIST ?? join(__dirname, '..', '..', 'dist', 'apps', 'worker', 'main.js');
  return spawn(process.execPath, [dist], { env: { PATH: process.env.PATH ?? '', ...ENV, ...extra }, stdio: 'inherit' });
}

async function main(): Promise<void> {
  await freshDatabase(DB);
  const api = await spawnRole(__filename, 'api');
  const pg = new Client({ connectionString: DB_URL });
  await pg.connect();
  const fast = await startTranslatorAgent({ keepCalls: false });
  const connection = { host: '127.0.0.1', port: 6379 };
  const executions = new Queue('executions', { connection, prefix: PREFIX });
  const webhooks = new Queue('webhooks', { connection, prefix: PREFIX });
  const b = new Bench(api.url, pg);
  const hook = await peer(200);
  const results = new Map<string, number[]>();
  const note = (name: string, ms: number) => results.set(name, [...(results.get(name) ?? []), ms]);
  try {
    const honest = await b.register(fast.url);
    const fundedOwner = wallet();
    const funded = await b.register(fast.url, fundedOwner);
    await b.execute(wallet(), funded); // its paid record, counted once matured (as the worker's sweep would)
    await pg.query(`UPDATE transactions SET spend_counted = true WHERE providing_agent_id = $1`, [funded]);
    for (const [variant, extra] of Object.entries(VARIANTS)) {
      const worker = startWorker(extra);
      try {
        while ((await fetch(`${api.url}/api/v1/health/worker`)).status !== 200) await sleep(100);
        const victim = await b.subscribed(fast.url, hook.url);
        for (let round = 1; round <= ROUNDS; round++) {
          const [alone, one, nine] = await runsRound(b, executions, honest, funded);
          note(`${variant}: run alone`, alone);
          note(`${variant}: run behind one owner's 9 silent agents`, one);
          note(`${variant}: funded owner's run behind 9 fresh owners`, nine);
          const [hookAlone, hookBehind] = await webhooksRound(b, webhooks, victim, hook);
          note(`${variant}: webhook alone`, hookAlone);
          note(`${variant}: webhook behind 17 silent callback ports`, hookBehind);
          process.stdout.write(
            `${variant} round ${round}: ${[alone, one, nine, hookAlone, hookBehind].join(' / ')} ms\n`,
          );
        }
      } finally {
        await new Promise((resolve) => (worker.once('exit', resolve), worker.kill('SIGTERM')));
      }
    }
    process.stdout.write(`\nmedians of ${ROUNDS} rounds (ms)\n\n| scenario | ms | by round |\n|---|---|---|\n`);
    for (const [name, ms] of results) {
      const median = [...ms].sort((x, y) => x - y)[Math.floor(ms.length / 2)];
      process.stdout.write(`| ${name} | ${median} | ${ms.join(' / ')} |\n`);
    }
  } finally {
    await executions.close();
    await webhooks.close();
    await pg.end();
    await fast.stop();
    await hook.stop();
    await stopRoles([api.child]);
  }
  process.exit(0);
}

async function role(name: string): Promise<string> {
  process.once('SIGINT', () => process.exit(0));
  if (name === 'api') return roleApi();
  throw new Error(`unknown role ${name}`);
}

(process.argv[2] ? role(process.argv[2]).then((url) => process.stdout.write(`READY ${url}\n`)) : main()).catch(
  (err) => {
    process.stderr.write(`fairness bench failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
