import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519FromSeed } from '@app/outbound';
import { databaseUrl, TEST_DB_PREFIX, TEST_REDIS_URL, withAdmin } from '../setup/test-env';
import { ComposeService, parseDotenv, readCompose, serviceEnv } from '../support/compose';
import { freePort } from '../support/ports';
import { RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';

/*
 * `docker compose up` without Docker: the migrate, api and worker services' commands run as local
 * processes from this checkout's build (the image's /app), each with the environment compose gives
 * its container (the Dockerfile's ENV, the `.env` npm run init:env wrote, the service's
 * `environment` interpolated from that `.env`; the shell's variables are left out). Only where
 * the compose network is differs: postgres:5432 becomes this run's Postgres and a database of its
 * own (not yet existing: migrate creates it), redis:6379 this run's Redis (TEST_REDIS_URL) under
 * a queue prefix of its own, and the api (api:3000, 127.0.0.1:3000 in its healthcheck) and the
 * worker's metrics port free ports of this jest worker.
 */
const ROOT = join(__dirname, '..', '..');
const compose = readCompose();
const dir = mkdtempSync(join(tmpdir(), 'agora-compose-'));
const dbName = `${TEST_DB_PREFIX}compose_${randomBytes(4).toString('hex')}`;
const running: RunningProcess[] = [];

function initEnv(...args: string[]): RunningProcess {
  return startProcess(join(ROOT, 'scripts', 'init-env.js'), {}, ['--out', join(dir, '.env'), ...args]);
}

/** The service's container environment with the compose network's hosts mapped to this test's. */
function localEnv(
  name: string,
  dotenv: Record<string, string> | null,
  apiPort: number,
  metricsPort: number,
  queuePrefix: string,
): Record<string, string> {
  const env = serviceEnv(compose.services[name], dotenv);
  expect(new URL(env.DATABASE_URL).host).toBe('postgres:5432');
  expect(env.REDIS_URL).toBe('redis://redis:6379');
  return {
    ...env,
    DATABASE_URL: databaseUrl(dbName),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    PORT: String(apiPort),
    METRICS_PORT: String(metricsPort),
  };
}

function start(name: string, env: Record<string, string>): RunningProcess {
  const [node, script, ...args] = compose.services[name].command!;
  expect(node).toBe('node');
  const p = startProcess(join(ROOT, script), env, args);
  running.push(p);
  return p;
}

/** Runs the service's healthcheck (exec form) once, its api address mapped; true when it exits 0. */
function healthy(service: ComposeService, apiPort: number): Promise<boolean> {
  const [form, cmd, ...args] = service.healthcheck!.test;
  expect([form, cmd]).toEqual(['CMD', 'node']);
  const mapped = args.map((a) => a.replace(/http:\/\/(api|127\.0\.0\.1):3000\b/g, `http://127.0.0.1:${apiPort}`));
  return new Promise((resolve) =>
    spawn(process.execPath, mapped, { stdio: 'ignore' }).on('exit', (code) => resolve(code === 0)),
  );
}

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  rmSync(dir, { recursive: true, force: true });
});

describe('docker compose services as local processes (e2e)', () => {
  it('wires migrate as a one-shot the others wait for, and gives every long-running service a healthcheck', () => {
    const s = compose.services;
    for (const app of ['api', 'worker']) {
      expect(s[app].depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(s.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(s.migrate.command).toEqual(['node', 'dist/apps/ops/main.js', 'migrate']);
    // jaeger's image has no shell or client to run one (docker-compose.yml says so).
    const without = Object.entries(s).filter(([name, svc]) => name !== 'migrate' && !svc.healthcheck);
    expect(without.map(([name]) => name)).toEqual(['jaeger']);
  });

  it('with the .env init:env wrote: migrate exits 0, then the api and the worker pass their healthchecks', async () => {
    const init = initEnv();
    expect(await init.exited).toBe(0);
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    const dotenv = parseDotenv(readFileSync(join(dir, '.env'), 'utf8'));
    const [apiPort, metricsPort] = [await freePort(), await freePort()];
    const prefix = `c${randomBytes(4).toString('hex')}`;
    const [migrateEnv, apiEnv, workerEnv] = ['migrate', 'api', 'worker'].map((n) =>
      localEnv(n, dotenv, apiPort, metricsPort, prefix),
    );
    expect(apiEnv).toMatchObject({
      NODE_ENV: 'production',
      PLATFORM_SIGNING_SEED: dotenv.PLATFORM_SIGNING_SEED,
      METRICS_TOKEN: dotenv.METRICS_TOKEN,
    });
    // compose's Postgres gets a password (no trust), and the apps' DATABASE_URL carries it.
    expect(serviceEnv(compose.services.postgres, dotenv)).toMatchObject({
      POSTGRES_PASSWORD: expect.stringMatching(/^[0-9a-f]{64}$/),
      POSTGRES_HOST_AUTH_METHOD: 'scram-sha-256',
    });
    expect(decodeURIComponent(new URL(serviceEnv(compose.services.api, dotenv).DATABASE_URL).password)).toBe(
      dotenv.POSTGRES_PASSWORD,
    );

    const migrate = start('migrate', migrateEnv);
    expect(await migrate.exited).toBe(0);
    const applied = await withClient(databaseUrl(dbName), async (c) =>
      Number((await c.query('SELECT count(*) FROM typeorm_migrations')).rows[0].count),
    );
    expect(applied).toBeGreaterThan(0);

    const api = start('api', apiEnv);
    await waitFor(() => healthy(compose.services.api, apiPort), `api healthcheck:\n${api.output()}`, 30_000);
    // The worker's check reads the heartbeat through the api: failing until the worker runs.
    expect(await healthy(compose.services.worker, apiPort)).toBe(false);
    const worker = start('worker', workerEnv);
    await waitFor(() => healthy(compose.services.worker, apiPort), `worker healthcheck:\n${worker.output()}`, 30_000);

    // The secrets reached the processes: the published key is the .env seed's; no migration is pending.
    const keys = (await (await fetch(`http://127.0.0.1:${apiPort}/api/v1/platform/keys`)).json()) as {
      data: { keys: { publicKey: string }[] };
    };
    expect(keys.data.keys[0].publicKey).toBe(ed25519FromSeed(dotenv.PLATFORM_SIGNING_SEED).raw.toString('base64'));
    expect((await fetch(`http://127.0.0.1:${apiPort}/api/v1/health/ready`)).status).toBe(200);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${dotenv.METRICS_TOKEN}` },
    });
    expect(scrape.status).toBe(200);

    for (const p of [worker, api]) {
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    }
  });

  it('init:env never replaces an existing .env without --force', async () => {
    const before = readFileSync(join(dir, '.env'), 'utf8');
    const again = initEnv();
    expect(await again.exited).toBe(1);
    expect(again.output()).toMatch(/exists; it holds secrets in use\. Pass --force/);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(before);
    const forced = initEnv('--force', '--wallet', '0x1111111111111111111111111111111111111111');
    expect(await forced.exited).toBe(0);
    const after = parseDotenv(readFileSync(join(dir, '.env'), 'utf8'));
    expect(after.PLATFORM_WALLET).toBe('0x1111111111111111111111111111111111111111');
    expect(after.RELAYER_PRIVATE_KEY).toBeUndefined();
    expect(after.PLATFORM_SIGNING_SEED).not.toBe(parseDotenv(before).PLATFORM_SIGNING_SEED);
  });

  it.each([
    [
      'the development and sample values',
      {
        PLATFORM_WALLET: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        PLATFORM_SIGNING_SEED: '00'.repeat(31) + '01',
        CHAIN_TOKEN_SEEDS: '00'.repeat(31) + '02',
        METRICS_TOKEN: 'change-me-metrics-token',
      },
      [
        'PLATFORM_WALLET 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 is a well-known',
        'PLATFORM_SIGNING_SEED is the public',
        'CHAIN_TOKEN_SEEDS holds the public',
        'METRICS_TOKEN is a published sample',
      ],
    ],
    [
      'no .env at all',
      null,
      ['PLATFORM_WALLET is required', 'PLATFORM_SIGNING_SEED is required', 'CHAIN_TOKEN_SEEDS must be'],
    ],
  ])(
    'with %s the api (NODE_ENV=production from the image) refuses to start, naming each variable',
    async (_what, dotenv, messages) => {
      const env = localEnv('api', dotenv, await freePort(), await freePort(), 'unused');
      expect(env.NODE_ENV).toBe('production');
      const api = start('api', env);
      expect(await api.exited).toBe(1);
      expect(api.output()).toMatch(/^agora api: Invalid configuration:/);
      for (const m of messages) expect(api.output()).toContain(m);
      expect(api.output()).toContain('npm run init:env');
    },
  );
});
