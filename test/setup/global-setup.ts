import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../libs/database/src/data-source.options';
import { databaseUrl, TEMPLATE_DB, TEST_PG_ADMIN_URL } from './test-env';

/** Builds the migrated template database once; each test file clones it (CREATE DATABASE ... TEMPLATE). */
export default async function globalSetup(): Promise<void> {
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    const stale = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'agora_t_%'`);
    for (const row of stale.rows as { datname: string }[]) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  } finally {
    await admin.end();
  }
  const ds = new DataSource(buildDataSourceOptions({ url: databaseUrl(TEMPLATE_DB), poolSize: 1 }));
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}
