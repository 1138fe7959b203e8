import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { exitGracefullyOnSignals } from '@app/common';
import { loadConfigOrExit } from '@app/config';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
  const logger = app.get(Logger);
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  logger.log(`agora api listening on ${config.port}`);
}

void main();
