import { INestApplicationContext } from '@nestjs/common';

/**
 * On SIGTERM/SIGINT: close the application (BullMQ workers finish their active jobs, the HTTP
 * server stops accepting, pools drain), then exit 0. A second signal, or a close that takes
 * longer than `graceMs`, exits 1 at once.
 */
export function exitGracefullyOnSignals(
  app: INestApplicationContext,
  log: (msg: string) => void,
  graceMs = 25_000,
): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    log(`${signal} received: shutting down`);
    setTimeout(() => process.exit(1), graceMs).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
