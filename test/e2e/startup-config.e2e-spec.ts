import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { TEST_REDIS_URL } from '../setup/test-env';
import { onFreePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { createTestDatabase } from '../support/test-db';

/*
 * Start-up of the built processes (issue 53): a bad setting stops each with the configuration's message
 * (one line per problem, naming the variable), never a stack trace; a clean start logs no warning and one
 * summary line of how it takes money.
 */
const STACK_LINE = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

describe('bad settings stop every process with the configuration message (e2e)', () => {
  it.each([
    ['api', { TRUST_PROXY: '0.0.0.0/0' }, /TRUST_PROXY ranges need a prefix of 1 to 32 .*0\.0\.0\.0\/0 would trust/],
    ['worker', { TRUST_PROXY: 'loopback,::/0' }, /TRUST_PROXY ranges need a prefix .*::\/0/],
    ['ops', { MAINTENANCE_INTERVAL_MS: '3000000000' }, /MAINTENANCE_INTERVAL_MS must be an integer between 100/],
    ['api', { RELAYER_PRIVATE_KEY: `0x${'00'.repeat(32)}` }, /RELAYER_PRIVATE_KEY must be .* valid secp256k1/],
    ['worker', { METRICS_HOST: 'not a host' }, /METRICS_HOST must be an IP address or a host name/],
    ['ops', { DATABASE_URL: 'postgres://127.0.0.1:5432/my.db' }, /DATABASE_URL must name a host and a database/],
    ['api', { NODE_ENV: 'production' }, /PUBLIC_BASE_URL is required when NODE_ENV=production/],
  ] as const)('%s refuses %j', async (app, env, message) => {
    const proc = startProcess(builtApp(app), { LOG_LEVEL: 'info', ...env }, app === 'ops' ? ['migrate'] : []);
    const code = await proc.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    const out = proc.output();
    expect(out).toMatch(new RegExp(`^agora ${app}: Invalid configuration:\\n`));
    expect(out).toMatch(message);
    expect(out).not.toMatch(STACK_LINE);
    // Each problem on one line: "  - VARIABLE ...".
    for (const line of out.trim().split('\n').slice(1)) expect(line).toMatch(/^ {2}- [A-Z0-9_]+ /);
  });
});

describe('a clean start (e2e)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  /** Starts the built api on a free port with `env`, waits for its summary line, stops it; its log lines. */
  async function runApi(env: (port: number) => Record<string, string>): Promise<{ port: number; log: string[] }> {
    let port = 0;
    const proc = await onFreePort(async (p) => {
      const started = startProcess(builtApp('api'), {
        PORT: String(p),
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: `sc${randomBytes(4).toString('hex')}`,
        LOG_LEVEL: 'info',
        ...env(p),
      });
      await waitFor(
        async () => {
          if (started.child.exitCode !== null) return true;
          return started.output().includes(`agora api listening on ${p}`);
        },
        `api on port ${p}`,
        30_000,
      ).catch(async (err: unknown) => {
        started.child.kill('SIGKILL');
        await started.exited;
        throw err;
      });
      if (started.child.exitCode !== null) throw new Error(`api exited on port ${p}:\n${started.output()}`);
      port = p;
      return started;
    });
    return { port, log: await stop(proc) };
  }

  async function stop(proc: RunningProcess): Promise<string[]> {
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    return proc
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
  }

  function expectCleanLog(lines: string[]): { level: number; msg: string }[] {
    // Every line is a pino JSON object (no bare text, no stack trace), none at warn (40) or above.
    const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.filter((e) => e.level >= 40)).toEqual([]);
    return entries;
  }

  it('development: no warning (no route converted), one summary line', async () => {
    const { port, log } = await runApi(() => ({ NODE_ENV: 'development' }));
    const entries = expectCleanLog(log);
    expect(log.join('\n')).not.toMatch(/LegacyRouteConverter|Unsupported route path/);
    const summary = entries.filter((e) => /^agora api listening on /.test(e.msg));
    expect(summary.map((e) => [e.level, e.msg])).toEqual([
      [
        30,
        `agora api listening on ${port}: settlement local, networks base-sepolia, base URL http://localhost:${port}, livemode false`,
      ],
    ]);
  });

  it('the worker: no warning, one summary line', async () => {
    const worker = startProcess(builtApp('worker'), {
      NODE_ENV: 'development',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `sw${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'info',
    });
    await waitFor(
      async () => {
        if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
        return worker.output().includes('agora worker started');
      },
      'the worker to start',
      30_000,
    );
    // The start: what it logged up to the stop (a sweep cut short by the stop may warn; not a start's business).
    const log = await stop(worker);
    const stopAt = log.findIndex((l) => l.includes('received: shutting down'));
    const entries = expectCleanLog(stopAt < 0 ? log : log.slice(0, stopAt));
    expect(entries.filter((e) => /^agora worker started/.test(e.msg)).map((e) => e.msg)).toEqual([
      'agora worker started: settlement local, networks base-sepolia, base URL http://localhost:3000, livemode false',
    ]);
  });

  it('production on this machine with the explicit loopback opt-in: starts clean, the base URL it was given', async () => {
    const secrets = {
      NODE_ENV: 'production',
      PLATFORM_WALLET: Wallet.createRandom().address,
      PLATFORM_SIGNING_SEED: randomBytes(32).toString('hex'),
      CHAIN_TOKEN_SEEDS: randomBytes(32).toString('hex'),
      PUBLIC_BASE_URL_LOOPBACK: 'true',
    };
    const { port, log } = await runApi((p) => ({ ...secrets, PUBLIC_BASE_URL: `http://127.0.0.1:${p}` }));
    const entries = expectCleanLog(log);
    const summary = entries.filter((e) => /^agora api listening on /.test(e.msg)).map((e) => e.msg);
    expect(summary).toEqual([
      `agora api listening on ${port}: settlement local, networks base-sepolia, base URL http://127.0.0.1:${port}, livemode false`,
    ]);
  });
});
