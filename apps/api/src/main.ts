import 'reflect-metadata';
import { exitGracefullyOnSignals } from '@app/common';
import { ConfigError, loadConfig } from '@app/config';
import { Logger } from 'nestjs-pino';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`agora api: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
  const logger = app.get(Logger);
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  logger.log(`agora api listening on ${config.port}`);
}

void main();
