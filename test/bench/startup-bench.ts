/**
 * Start-up cost of the built processes (`npm run bench:startup`, after `npm run build`): each of
 * api and worker started BENCH_ROUNDS times (default 5) from dist/, with tracing off (the default)
 * and on (an OTLP endpoint nobody listens on: the SDK loads and patches, exports fail quietly).
 * Prints, per configuration, the median milliseconds from spawn to ready (the api's
 * /api/v1/health/live, the worker's /metrics) and the median resident set size once ready.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshDatabase } from './bench-lib';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROOT = join(__dirname, '..', '..');
const ADMIN_KEY = 'bench-admin-key-0123456789';

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024);
}

async function ready(url: string, child: ChildProcess, deadline: number): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    if ((await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }).catch(() => null))?.status === 200)
      return;
    if (Date.now() > deadline) throw new Error(`${url}: not ready in time`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function startOnce(
  role: 'api' | 'worker',
  env: Record<string, string>,
  port: number,
): Promise<{ ms: number; rss: number }> {
  const roleEnv =
    role === 'api'
      ? { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }
      : { METRICS_PORT: String(port) };
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', role, 'main.js')], {
    env: { PATH: process.env.PATH ?? '', ...env, ...roleEnv },
    stdio: 'ignore',
  });
  try {
    await ready(
      role === 'api' ? `http://127.0.0.1:${port}/api/v1/health/live` : `http://127.0.0.1:${port}/metrics`,
      child,
      Date.now() + 30_000,
    );
    return { ms: performance.now() - started, rss: rssMb(child.pid!) };
  } finally {
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGINT')),
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const base = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: await freshDatabase('agora_bench_startup'),
    REDIS_URL: 'redis://127.0.0.1:6379/2',
    QUEUE_PREFIX: 'bstartup',
    ADMIN_API_KEY: ADMIN_KEY,
  };
  const configs: [string, Record<string, string>][] = [
    ['tracing off', {}],
    ['tracing on', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }],
  ];
  for (const role of ['api', 'worker'] as const) {
    for (const [name, extra] of configs) {
      const runs: { ms: number; rss: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await startOnce(role, { ...base, ...extra }, 39_400 + i));
      const ms = median(runs.map((r) => r.ms));
      const rss = median(runs.map((r) => r.rss));
      process.stdout.write(
        `${role.padEnd(6)} ${name.padEnd(11)} ready in ${ms.toFixed(0).padStart(5)} ms (median of ${ROUNDS}), RSS ${rss} MB\n`,
      );
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
