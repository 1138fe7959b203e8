import { Client } from 'pg';

/* Test-only environment: where the suites find Postgres and Redis. */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
/**
 * TEST_DB_NAMESPACE (letters only) gives a test run databases of its own (`agora_<ns>_template`,
 * `agora_<ns>_t_<random>`), so two runs on one Postgres (a developer and a helper, say) never drop
 * each other's; unset, the names are `agora_test_template` and `agora_t_<random>`.
 */
const NAMESPACE = /^[a-z]{1,12}$/.test(process.env.TEST_DB_NAMESPACE ?? '') ? process.env.TEST_DB_NAMESPACE : null;
export const TEMPLATE_DB = NAMESPACE ? `agora_${NAMESPACE}_template` : 'agora_test_template';
/** Prefix of the per-file databases. */
export const TEST_DB_PREFIX = NAMESPACE ? `agora_${NAMESPACE}_t_` : 'agora_t_';
/** Per-file databases (LIKE pattern, `_` escaped). */
export const TEST_DB_PATTERN = `${TEST_DB_PREFIX.replace(/_/g, '\\_')}%`;

export function databaseUrl(name: string): string {
  const u = new URL(TEST_PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** Drops every per-file test database left by this or an earlier run. */
export async function dropTestDatabases(admin: Client): Promise<void> {
  const dbs = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [TEST_DB_PATTERN]);
  for (const row of dbs.rows as { datname: string }[])
    await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
}
