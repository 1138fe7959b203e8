import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl, TEMPLATE_DB, TEST_DB_PREFIX, withAdmin } from '../setup/test-env';

/** A fresh, migrated database for one test file, cloned from the template. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${TEST_DB_PREFIX}${randomBytes(5).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`));
  return {
    url: databaseUrl(name),
    name,
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
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
