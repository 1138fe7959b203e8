import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../libs/database/src/data-source.options';
import { databaseUrl, dropTestDatabases, TEMPLATE_DB, withAdmin } from './test-env';

/** Builds the migrated template database once; each test file clones it (CREATE DATABASE ... TEMPLATE). */
export default async function globalSetup(): Promise<void> {
  await withAdmin(async (admin) => {
    await dropTestDatabases(admin);
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  });
  const ds = new DataSource(buildDataSourceOptions({ url: databaseUrl(TEMPLATE_DB), poolSize: 1 }));
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}
