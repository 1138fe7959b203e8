import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl, TEMPLATE_DB, TEST_PG_ADMIN_URL } from '../setup/test-env';

/** A fresh, migrated database for one test file, cloned from the template. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `agora_t_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`);
  return { url: databaseUrl(name), name, drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Direct SQL against a test database, for asserting rows. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
