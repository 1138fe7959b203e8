/* npm run drill: the drill's own processes. anvil with the token, a fresh Postgres database (reached by the
   api and worker processes through a loopback TCP proxy the drill can cut), a redis-server of its own on a
   loopback port, and the api and worker processes of dist (npm run -s build), each logging to a file. */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { LocalChain, startChain } from '../../scripts/local-chain';
import { evmEnv } from '../support/evm-env';

const ROOT = join(__dirname, '..', '..');
const PG = { host: '127.0.0.1', port: 5432 };
export const PG_ADMIN_URL = `postgres://postgres@${PG.host}:${PG.port}/postgres`;
export const ADMIN_KEY = 'drill-admin-key-0123456789';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until it answers truthy (then true) or `ms` passed (then false). */
export async function pollUntil(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** A loopback TCP proxy in front of Postgres: `cut()` resets every connection and refuses new ones until `restore()`. */
export class PgProxy {
  private server?: Server;
  private readonly open = new Set<Socket>();
  private down = false;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.down) return void client.resetAndDestroy();
      const upstream = connect(PG.port, PG.host);
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.once('close', () => this.open.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  cut(): void {
    this.down = true;
    for (const s of this.open) s.resetAndDestroy();
  }

  restore(): void {
    this.down = false;
  }

  stop(): Promise<void> {
    this.cut();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A redis-server of the drill's own on a loopback port, keeping nothing: a kill -9 and a start leave it empty. */
export class DrillRedis {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'agora-drill-redis-'));
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.port ||= await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--dir', this.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    if (!(await pollUntil(async () => /ready to accept connections/i.test(out), 10_000)))
      throw new Error(`redis-server did not start on ${this.port}:\n${out}`);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The pid of the anvil this process started (a child named anvil). */
export function anvilPid(): number {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'anvil' && ppid === process.pid) return Number(entry);
    } catch {
      /* gone meanwhile */
    }
  }
  throw new Error('the drill has no anvil child');
}

/** One api or worker process of dist, restartable (an api on the same port), its output appended to a log file. */
export class DistProcess {
  child?: ChildProcess;
  port = 0;
  exited: Promise<unknown> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly app: 'api' | 'worker',
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.app === 'api') this.port ||= await freePort();
    const port = this.app === 'api' ? { PORT: String(this.port), PUBLIC_BASE_URL: this.url } : {};
    const log = createWriteStream(join(this.logDir, `${this.name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', this.app, 'main.js')], {
      env: { PATH: process.env.PATH ?? '', ...this.env, ...port },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    this.child = child;
    this.exited = new Promise((r) => child.once('exit', r));
    if (this.app === 'worker') return;
    const up = await pollUntil(
      async () => child.exitCode === null && (await fetch(`${this.url}/api/v1/health`)).status === 200,
      60_000,
    );
    if (!up) throw new Error(`${this.name} did not answer health 200 within 60 s (see ${this.logDir})`);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await this.exited;
  }
}

export interface DrillStack {
  chain: LocalChain;
  dbName: string;
  /** Direct to Postgres: the drill's own reads, migrate and ledger:check. */
  dbUrl: string;
  db: Client;
  proxy: PgProxy;
  redis: DrillRedis;
  apis: DistProcess[];
  workers: DistProcess[];
  logDir: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Runs dist/apps/ops/main.js `command` against `dbUrl`; answers its exit code and output. */
export function ops(command: string, dbUrl: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'dist', 'apps', 'ops', 'main.js'), command],
      { env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: dbUrl } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) || 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Starts everything; on a failure part way, stops what started. `extraEnv` (DRILL_PROCESS_ENV) adds to the processes' settings. */
export async function startStack(extraEnv: Record<string, string>, apis = 2, workers = 2): Promise<DrillStack> {
  const dbName = `agora_drill_${randomBytes(4).toString('hex')}`;
  const dbUrl = `postgres://postgres@${PG.host}:${PG.port}/${dbName}`;
  const logDir = join(ROOT, '.tmp', 'drill', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(logDir, { recursive: true });
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    const chain = await startChain();
    cleanups.push(() => chain.stop());
    cleanups.push(() => dropDatabase(dbName));
    const migrated = await ops('migrate', dbUrl);
    if (migrated.code !== 0) throw new Error(`migrate failed (npm run -s build first?):\n${migrated.out}`);
    const db = new Client({ connectionString: dbUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const proxy = await new PgProxy().start();
    cleanups.push(() => proxy.stop());
    const redis = new DrillRedis();
    cleanups.push(() => redis.stop());
    await redis.start();
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/${dbName}`,
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `drill${Date.now()}`,
      ADMIN_API_KEY: ADMIN_KEY,
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      // The load comes from one address and a few payers: the limits are not what the drill is about.
      RATE_LIMIT_READS_PER_MIN: '1000000',
      RATE_LIMIT_WRITES_PER_MIN: '1000000',
      RATE_LIMIT_CATALOG_PER_MIN: '1000000',
      RATE_LIMIT_CLIENT_PER_MIN: '1000000',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
      HEALTH_PROBE_INTERVAL_S: '0',
      // Earnings withdrawable within a second, as in a test deployment: withdrawals are part of the load.
      WITHDRAWAL_RESERVE: 'off',
      ESCROW_HOLD_STANDARD_S: '1',
      CONSOLE_DIR: '.tmp/no-console',
      ...extraEnv,
    };
    const make = (app: 'api' | 'worker', n: number) =>
      Array.from({ length: n }, (_, i) => new DistProcess(`${app}-${i + 1}`, app, env, logDir));
    const stack: DrillStack = {
      chain,
      dbName,
      dbUrl,
      db,
      proxy,
      redis,
      apis: make('api', apis),
      workers: make('worker', workers),
      logDir,
      env,
      stop,
    };
    cleanups.push(() => Promise.all([...stack.apis, ...stack.workers].map((p) => p.kill())));
    for (const p of [...stack.apis, ...stack.workers]) await p.start();
    return stack;
  } catch (err) {
    await stop();
    throw err;
  }
}
