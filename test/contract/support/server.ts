/*
 * Contract test harness. Written from the public contract only (the marketplace spec and its resolutions, as
 * documented in docs/ and the OpenAPI document), and it imports nothing from apps/, libs/ or the other test
 * support: it starts the BUILT processes (`npm run build` first) the way an operator does, with environment
 * variables named in the resolutions' configuration table (README "Configuration").
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { Client } from 'pg';

export interface Marketplace {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  /** X-Admin-Key for the platform actions under /api/v1/admin. */
  adminKey: string;
  /** The marketplace's own database (dropped by stop). */
  databaseUrl: string;
  /** The environment both processes were started with. */
  env: Record<string, string>;
  /** Output of the api and worker processes so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The checkout whose build (`dist/apps/*`) is tested: this one, or CONTRACT_BUILD_DIR (another checkout's
 * build, e.g. an older commit's, to see which contract tests it fails).
 */
const ROOT = process.env.CONTRACT_BUILD_DIR ?? join(__dirname, '..', '..', '..');
const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Redis database 1, as the other test tiers; a random QUEUE_PREFIX keeps the keys apart. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
export const DB_PREFIX = 'agora_contract_';

function built(name: 'api' | 'worker' | 'ops'): string {
  const path = join(ROOT, 'dist', 'apps', name, 'main.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run "npm run build" before the contract tests`);
  return path;
}

function dbUrl(name: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(script: string, env: Record<string, string>, args: string[] = []): Proc {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function kill(p: Proc): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p.exited;
}

/** A loopback port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns true; throws after `timeoutMs`. */
export async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The environment of a test deployment. Durations the contract fixes in hours (escrow holds, webhook
 * retries) are short here, as the resolutions' configuration table allows; everything else is the contract's.
 */
function deploymentEnv(port: number, databaseUrl: string, adminKey: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.CONTRACT_LOG_LEVEL ?? 'warn',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL,
    QUEUE_PREFIX: `c${randomBytes(5).toString('hex')}`,
    SETTLEMENT_MODE: 'local',
    PLATFORM_WALLET: Wallet.createRandom().address,
    PAYMENT_NETWORKS: 'base-sepolia',
    REPUTATION_MODEL: 'spec',
    WEBHOOK_LIST_URLS: 'full',
    ADMIN_API_KEY: adminKey,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // The tests register many agents and poll reads from one address: the per-IP limits are not under test.
    RATE_LIMIT_READS_PER_MIN: '1000000',
    RATE_LIMIT_WRITES_PER_MIN: '1000000',
    RATE_LIMIT_CATALOG_PER_MIN: '1000000',
    RATE_LIMIT_BUDGET_CHECKS_PER_MIN: '1000000',
    // Operator settings: no health probes of the test agents, no rolling reserve (new agents withdraw at once).
    HEALTH_PROBE_INTERVAL_S: '0',
    WITHDRAWAL_RESERVE: 'off',
    ESCROW_HOLD_STANDARD_S: '1',
    ESCROW_HOLD_AT_RISK_S: '1',
    ESCROW_HOLD_CRITICAL_S: '1',
    WEBHOOK_RETRY_DELAYS_MS: '0,300,600,900,1200',
    MAINTENANCE_INTERVAL_MS: '500',
  };
}

/** A fresh marketplace (api + worker on a loopback port, its own database). One per test file. */
export async function startMarketplace(opts: { env?: Record<string, string> } = {}): Promise<Marketplace> {
  const name = `${DB_PREFIX}${randomBytes(6).toString('hex')}`;
  const databaseUrl = dbUrl(name);
  const adminKey = `contract-admin-${randomBytes(12).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const dropDb = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const env = { ...deploymentEnv(port, databaseUrl, adminKey), ...(opts.env ?? {}) };
      if (attempt === 1) await migrate(env);
      try {
        return await launch(env, port, databaseUrl, adminKey, dropDb);
      } catch (err) {
        if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
      }
    }
  } catch (err) {
    await dropDb();
    throw err;
  }
}

async function migrate(env: Record<string, string>): Promise<void> {
  const ops = run(built('ops'), env, ['migrate']);
  const code = await ops.exited;
  if (code !== 0) throw new Error(`migrate exited with ${code}:\n${ops.output()}`);
}

async function launch(
  env: Record<string, string>,
  port: number,
  databaseUrl: string,
  adminKey: string,
  dropDb: () => Promise<void>,
): Promise<Marketplace> {
  const api = run(built('api'), env);
  const worker = run(built('worker'), env);
  const output = () => `--- api ---\n${api.output()}\n--- worker ---\n${worker.output()}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await until(async () => {
      if (api.child.exitCode !== null) throw new Error(`api exited (${api.child.exitCode}):\n${output()}`);
      if (worker.child.exitCode !== null) throw new Error(`worker exited (${worker.child.exitCode}):\n${output()}`);
      const res = await fetch(`${baseUrl}/api/v1/health`).catch(() => null);
      return res?.status === 200;
    }, `GET ${baseUrl}/api/v1/health = 200`);
  } catch (err) {
    await Promise.all([kill(api), kill(worker)]);
    throw err;
  }
  let stopped = false;
  return {
    baseUrl,
    adminKey,
    databaseUrl,
    env,
    output,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([kill(api), kill(worker)]);
      await dropDb();
    },
  };
}
