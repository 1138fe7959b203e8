import './instrument';
import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { exitGracefullyOnSignals, FaultInjector } from '@app/common';
import { loadConfigOrExit } from '@app/config';
import { settlementSummary } from '@app/x402';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const app = await createApiApp(config);
  app.get(FaultInjector).killAt(config.faultKillAt); // tests only (NODE_ENV=test): a real crash at a named point
  await app.listen(config.port, '0.0.0.0');
  const logger = app.get(Logger);
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  // The one start-up line: where it listens and how it takes money.
  logger.log(`agora api listening on ${config.port}: ${settlementSummary(config)}`);
}

void main();
