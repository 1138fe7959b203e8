import { Client } from 'pg';
import { TEST_PG_ADMIN_URL } from './test-env';

export default async function globalTeardown(): Promise<void> {
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    const dbs = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'agora_t_%'`);
    for (const row of dbs.rows as { datname: string }[]) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
