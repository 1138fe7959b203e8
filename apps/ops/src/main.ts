import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfigOrExit } from '@app/config';
import { buildDataSourceOptions } from '@app/database';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { CHAIN_CHECKS } from '@app/chains';
import { ROLLUP_CHECKS } from '@app/analytics';
import { DISPUTE_CHECKS } from '@app/disputes';
import { ensureDatabase } from './ensure-database';

const COMMANDS = ['migrate', 'migrate:revert', 'ledger:check'];
const USAGE = `usage: agora-ops <${COMMANDS.join('|')}>`;

/** Operational commands that run once and exit (migrations now; ledger checks later). */
async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (!command || !COMMANDS.includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrExit('ops');
  if (command === 'migrate' && (await ensureDatabase(config.databaseUrl))) {
    process.stdout.write('created database\n');
  }
  const dataSource = new DataSource(
    buildDataSourceOptions({ url: config.databaseUrl, poolSize: 2, applicationName: 'agora-ops' }),
  );
  await dataSource.initialize();
  try {
    if (command === 'ledger:check') return await ledgerCheck(dataSource);
    if (command === 'migrate') {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      process.stdout.write(
        `migrations applied: ${ran.length ? ran.map((m) => m.name).join(', ') : 'none (up to date)'}\n`,
      );
    } else {
      await dataSource.undoLastMigration({ transaction: 'each' });
      process.stdout.write('reverted the last migration\n');
    }
  } finally {
    await dataSource.destroy();
  }
  return 0;
}

/** Runs invariants I1-I10, the chain and dispute checks and the rollup checks (R1-R4) and prints each; exit code 1 when any is violated. */
async function ledgerCheck(dataSource: DataSource): Promise<number> {
  const report = await runInvariantChecks(dataSource.manager, [
    ...LEDGER_CHECKS,
    ...PAYMENT_CHECKS,
    ...CHAIN_CHECKS,
    ...DISPUTE_CHECKS,
    ...ROLLUP_CHECKS,
  ]);
  for (const r of report.results) {
    process.stdout.write(`${r.violations.length ? 'FAIL' : 'ok  '} ${r.id} ${r.description}\n`);
    for (const v of r.violations.slice(0, 20)) process.stdout.write(`       ${v}\n`);
    if (r.violations.length > 20) process.stdout.write(`       ... and ${r.violations.length - 20} more\n`);
  }
  process.stdout.write(report.ok ? 'ledger check passed\n' : 'ledger check FAILED\n');
  return report.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`agora-ops: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
