import './instrument';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { exitGracefullyOnSignals, FaultInjector } from '@app/common';
import { loadConfigOrExit } from '@app/config';
import { settlementSummary } from '@app/x402';
import { WorkerModule } from './worker.module';

/** The worker: no HTTP server; BullMQ processors, timers and a Redis heartbeat. */
async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.get(FaultInjector).killAt(config.faultKillAt); // tests only (NODE_ENV=test)
  await app.init();
  const logger = app.get(Logger);
  // SIGTERM/SIGINT close the BullMQ workers (waiting for active jobs) before exit.
  exitGracefullyOnSignals(app, (m) => logger.log(m));
  logger.log(`agora worker started: ${settlementSummary(config)}`);
}

void main();
