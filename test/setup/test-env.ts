/* Test-only environment: where the suites find Postgres and Redis. */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
export const TEMPLATE_DB = 'agora_test_template';

export function databaseUrl(name: string): string {
  const u = new URL(TEST_PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}
