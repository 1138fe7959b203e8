import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfigOrExit } from '@app/config';
import { buildDataSourceOptions } from '@app/database';
import { ensureDatabase } from './ensure-database';

const USAGE = 'usage: agora-cli <migrate|migrate:revert>';

/** Operational commands that run once and exit (migrations now; ledger checks later). */
async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (!command || !['migrate', 'migrate:revert'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrExit('cli');
  if (command === 'migrate' && (await ensureDatabase(config.databaseUrl))) {
    process.stdout.write('created database\n');
  }
  const dataSource = new DataSource(buildDataSourceOptions({ url: config.databaseUrl, poolSize: 2, applicationName: 'agora-cli' }));
  await dataSource.initialize();
  try {
    if (command === 'migrate') {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      process.stdout.write(`migrations applied: ${ran.length ? ran.map((m) => m.name).join(', ') : 'none (up to date)'}\n`);
    } else {
      await dataSource.undoLastMigration({ transaction: 'each' });
      process.stdout.write('reverted the last migration\n');
    }
  } finally {
    await dataSource.destroy();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`agora-cli: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
