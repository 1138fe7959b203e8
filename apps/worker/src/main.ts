import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { exitGracefullyOnSignals } from '@app/common';
import { ConfigError, loadConfig } from '@app/config';
import { WorkerModule } from './worker.module';

/** The worker: no HTTP server; BullMQ processors, timers and a Redis heartbeat. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`agora worker: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  await app.init();
  const logger = app.get(Logger);
  // SIGTERM/SIGINT close the BullMQ workers (waiting for active jobs) before exit.
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  logger.log('agora worker started');
}

void main();
