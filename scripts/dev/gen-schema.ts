/* Prints the SQL a new migration needs: migrates a scratch database (agora_gen) and diffs it
   against every entity in libs. Run: node -r @swc-node/register scripts/dev/gen-schema.ts */
import 'reflect-metadata';
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@app/database';

const files = execSync('grep -rl "@Entity(" libs', { cwd: resolve(__dirname, '../..') })
  .toString()
  .split('\n')
  .filter(Boolean)
  .map((f) => resolve(__dirname, '../..', f));
(async () => {
  const admin = new DataSource({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.initialize();
  await admin.query('DROP DATABASE IF EXISTS agora_gen');
  await admin.query('CREATE DATABASE agora_gen');
  await admin.destroy();
  const entities: unknown[] = [];
  for (const f of files) {
    const m = (await import(f)) as Record<string, unknown>;
    for (const v of Object.values(m)) if (typeof v === 'function') entities.push(v);
  }
  const ds = new DataSource({
    ...buildDataSourceOptions({ url: 'postgres://postgres@127.0.0.1:5432/agora_gen', entities: entities as never }),
  });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  const log = await ds.driver.createSchemaBuilder().log();
  console.log('UP');
  for (const q of log.upQueries) console.log(q.query + ';');
  console.log('DOWN');
  for (const q of log.downQueries.reverse()) console.log(q.query + ';');
  await ds.destroy();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
