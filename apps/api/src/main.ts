import './instrument';
import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { exitGracefullyOnSignals, FaultInjector } from '@app/common';
import { loadConfigOrExit } from '@app/config';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const app = await createApiApp(config);
  app.get(FaultInjector).killAt(config.faultKillAt); // tests only (NODE_ENV=test): a real crash at a named point
  await app.listen(config.port, '0.0.0.0');
  const logger = app.get(Logger);
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  logger.log(`agora api listening on ${config.port}`);
}

void main();
