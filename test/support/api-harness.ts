import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Clock } from '@app/common';
import { AppConfig, loadConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory';
import { TEST_REDIS_URL } from '../setup/test-env';
import { createTestDatabase } from './test-db';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiHarness {
  app: INestApplication;
  config: AppConfig;
  baseUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  request<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

/**
 * The real API on a loopback port, against its own fresh database and its own Redis
 * key prefix. `env` overrides configuration the way the process environment would.
 */
export async function startApi(
  env: Record<string, string> = {},
  opts: { clock?: Clock; databaseUrlFor?: (url: string) => string } = {},
): Promise<ApiHarness> {
  const db = await createTestDatabase();
  const fullEnv: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // The api's own way to its database (a test's proxy, test/support/pg-proxy.ts); databaseUrl stays direct.
    DATABASE_URL: opts.databaseUrlFor ? opts.databaseUrlFor(db.url) : db.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ADMIN_API_KEY: 'test-admin-key-0123456789',
    // Tests poll reads in loops and register many agents from one address; the per-IP limits are
    // exercised by their own tests (read-rate-limit, abuse-rate-limits). Budget checks keep the default.
    RATE_LIMIT_READS_PER_MIN: '1000000',
    RATE_LIMIT_WRITES_PER_MIN: '1000000',
    RATE_LIMIT_CATALOG_PER_MIN: '1000000',
    // Health probes (HEAD requests to the agents' endpoints) are exercised by their own tests (health-worker):
    // elsewhere a worker would probe every test agent within seconds and show up in its calls.
    HEALTH_PROBE_INTERVAL_S: '0',
    // A test deployment, as the docs advise: earnings are withdrawable at once; the reserve's own tests turn it on.
    WITHDRAWAL_RESERVE: 'off',
    // The console (a built apps/console) is served by the tests that ask for it: elsewhere `/` is the API's 404.
    CONSOLE_DIR: '.tmp/no-console',
    ...env,
  };
  const config = loadConfig(fullEnv);
  const app = await createApiApp(config, opts);
  // PORT: a test that must know its origin beforehand (PUBLIC_BASE_URL, the console's sign-in).
  await app.listen(Number(env.PORT ?? 0), '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    config,
    baseUrl,
    databaseUrl: db.url,
    env: fullEnv,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      // An absolute URL the API answered (a statusUrl) is built from PUBLIC_BASE_URL, not this port: its path is asked here.
      const url = /^https?:/.test(path)
        ? `${baseUrl}${new URL(path).pathname}${new URL(path).search}`
        : `${baseUrl}${path}`;
      const res = await fetch(url, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* non-JSON body stays text */
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
