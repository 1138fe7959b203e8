/* What the benchmarks share: autocannon runs with one fresh payment header per request, child
   processes for each role, a fresh database. */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { Agent as UndiciAgent, fetch as undiciFetch } from 'undici';
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@app/database';
import { transferAuthorizationDigest } from '@app/x402';

export interface Row {
  scenario: string;
  connections: number;
  rps: number;
  /** Requests completed in the run, and those answered 2xx. */
  total?: number;
  ok?: number;
  /** CPU per request (ms) of the process serving it and of Postgres, during the run. */
  serverCpu?: number;
  pgCpu?: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rounds?: number[];
}

/** Headers added to one request (a payment header). */
export type RequestHeaders = Record<string, string>;

/**
 * One autocannon run of `seconds` at `connections`. Each request takes the next headers of
 * `pool`; a pool that runs dry fails the run (a reused payment would be a replay, not a measurement).
 */
export function load(
  name: string,
  connections: number,
  opts: { url: string; body: string; pool?: RequestHeaders[]; seconds: number; bodies?: string[] },
): Promise<Row> {
  let i = 0;
  let b = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: opts.url,
        connections,
        duration: opts.seconds,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: opts.body,
            setupRequest: (req: any) => {
              // `bodies`: each request takes the next, in turn (calls spread over several agents).
              if (opts.bodies) req = { ...req, body: opts.bodies[b++ % opts.bodies.length] };
              if (!opts.pool) return req;
              if (i >= opts.pool.length)
                throw new Error(`${name}: the pool of ${opts.pool.length} payment headers ran dry; raise its size`);
              return { ...req, headers: { ...req.headers, ...opts.pool[i++] } };
            },
          },
        ],
      },
      (err: Error | null, r: any) => {
        if (err) return reject(err);
        const seconds = r.duration || opts.seconds;
        resolve({
          scenario: name,
          connections,
          total: r.requests.total,
          ok: r['2xx'],
          rps: Math.round((r['2xx'] / seconds) * 10) / 10,
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
        });
      },
    );
  });
}

/**
 * Runs `file` again as a child process in `role`; resolves once it prints `READY <url>`. `preload`:
 * modules loaded (`-r`) before `file` and its imports (what a process's instrument.ts does first).
 */
export function spawnRole(
  file: string,
  role: string,
  env: Record<string, string> = {},
  preload: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const prof = process.env.BENCH_CPU_PROF === role ? ['--cpu-prof', '--cpu-prof-dir', 'bench-profiles'] : [];
  const args = [...prof, '-r', '@swc-node/register', ...preload.flatMap((m) => ['-r', m]), file, role];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let bytes = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (out === null) return;
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) {
        out = null as unknown as string;
        resolve({ url: m[1], child });
      }
    });
    child.once('exit', () => process.env.BENCH_DEBUG && process.stdout.write(`${role}: ${bytes} bytes of output\n`));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

export function stopRoles(children: ChildProcess[]): Promise<unknown> {
  return Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) =>
          child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGINT')),
        ),
    ),
  );
}

/** Drops and creates database `name`, empty; answers its URL. */
export async function emptyDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

/** Drops and creates database `name` and runs the migrations; answers its URL. */
export async function freshDatabase(name: string): Promise<string> {
  const url = await emptyDatabase(name);
  const migrator = new DataSource(buildDataSourceOptions({ url, poolSize: 1 }));
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'each' });
  // BENCH_DROP_INDEXES=a,b: an A/B of what those indexes cost the writes (docs/performance.md).
  for (const ix of (process.env.BENCH_DROP_INDEXES ?? '').split(',').filter((i) => /^\w+$/.test(i)))
    await migrator.query(`DROP INDEX "${ix}"`);
  await migrator.destroy();
  return url;
}

/**
 * An x402 v1 `exact` payment header on base-sepolia (chain 84532, as the local chain is) for
 * `amount` of the token at `usdc`, to `payTo`. The digest the api verifies (property-tested equal
 * to ethers' typed-data hash), signed directly: half the cost of signTypedData for the pools.
 */
export function x402V1Header(wallet: Wallet, amount: bigint, o: { usdc: string; payTo: string }): string {
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: wallet.address,
    to: o.payTo,
    value: amount.toString(),
    validAfter: '0', // as the @x402/evm client signs it
    validBefore: String(now + 900),
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  const signature = wallet.signingKey.sign(
    transferAuthorizationDigest(
      { name: 'USDC', version: '2', chainId: 84532, verifyingContract: o.usdc },
      authorization,
    ),
  ).serialized;
  return Buffer.from(
    JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature, authorization } }),
  ).toString('base64');
}

/** /proc/<pid>/stat fields after the command name (Linux), or null. */
export function procStat(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
  } catch {
    return null;
  }
}

export const TICK_MS = 1000 / 100; // USER_HZ

/** CPU time (ms) a process has used so far; with `reaped`, also that of its children that have exited. */
export function cpuMs(pid: number | undefined, reaped = false): number {
  const f = pid === undefined ? null : procStat(pid);
  if (!f) return 0;
  return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) * TICK_MS;
}

/**
 * CPU time (ms) of the Postgres server so far: every live server process, plus the exited
 * backends the postmaster has reaped (pool connections come and go during a run).
 */
export function postgresCpuMs(): number {
  return processesCpuMs('postgres');
}

/** CPU time (ms) of every process named `comm` so far, plus the exited children they have reaped. */
export function processesCpuMs(comm: string): number {
  let pids: number[] = [];
  try {
    pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm;
        } catch {
          return false;
        }
      });
  } catch {
    return 0;
  }
  const set = new Set(pids);
  return pids.reduce((sum, pid) => sum + cpuMs(pid, !set.has(Number(procStat(pid)?.[1]))), 0);
}

/**
 * Opens a chain (budget 1000.00) whose root, an agent served here, holds its run open until
 * `release`: answers the root's chain token, for sub-calls to spend. `register` pays the root
 * agent's registration (signed by the wallet registered), `root` the root execute (0.011 + the budget).
 */
export async function openHeldChain(
  apiUrl: string,
  pay: {
    register: (wallet: Wallet) => string | Promise<string>;
    root: () => string | Promise<string>;
    holder?: Wallet;
  },
): Promise<{ token: string; release: () => Promise<void> }> {
  let answer: (() => void) | null = null;
  let gotToken: (t: string) => void;
  const token = new Promise<string>((resolve) => (gotToken = resolve));
  const server: Server = createServer((req, res) => {
    req.resume();
    const reply = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: {} }));
    // Only the root's run is held; anything else (the worker's health probes of this endpoint) is answered at once.
    if (answer || !req.headers['x-chain-token']) return reply();
    gotToken(String(req.headers['x-chain-token']));
    answer = reply;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/execute`;
  const holder = pay.holder ?? new Wallet(Wallet.createRandom().privateKey);
  const reg = await fetch(`${apiUrl}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payment': await pay.register(holder) },
    body: JSON.stringify({
      wallet: holder.address,
      name: 'Bench Orchestrator',
      capabilities: [
        {
          id: 'orchestrate',
          name: 'Orchestrate',
          description: 'Holds a chain open',
          pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
        },
      ],
      endpoints: { execution: rootUrl },
    }),
  });
  if (reg.status !== 201) throw new Error(`registering the chain's root answered ${reg.status}: ${await reg.text()}`);
  const rootId = ((await reg.json()) as { data: { id: string } }).data.id;
  // Held open for the whole bench (minutes): no client-side timeout on its answer.
  const root = undiciFetch(`${apiUrl}/api/v1/execute`, {
    dispatcher: new UndiciAgent({ headersTimeout: 0, bodyTimeout: 0 }),
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payment': await pay.root() },
    body: JSON.stringify({
      targetAgentId: rootId,
      capabilityId: 'orchestrate',
      input: {},
      chain: { budget: '1000.00' },
    }),
  });
  return {
    token: await token,
    release: async () => {
      answer?.();
      const res = await root;
      if (res.status !== 200) throw new Error(`the chain's root answered ${res.status}: ${await res.text()}`);
      server.close();
    },
  };
}
