import { Logger } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import type { Pool } from 'pg';

const logger = new Logger('PostgresConnections');
const logLost = (err: Error) => logger.warn({ err: err.message }, 'a Postgres connection was lost; the pool replaces it');

/**
 * Gives every pooled connection a permanent 'error' listener. A connection whose backend is killed
 * (pg_terminate_backend, a failover) can report its loss more than once, and at moments when no
 * one holds it: TypeORM and pg-pool detach their listeners once they have released it, and an
 * 'error' with no listener ends the Node process. The statements it was running fail on their own,
 * and pg-pool never takes a connection that is no longer queryable back (it destroys it on release),
 * so this listener is all a checked-out connection needs (the pipelined transactions add none).
 */
export function keepConnectionErrorsHandled(pool: Pool): void {
  const attach = (client: EventEmitter) => {
    if (!client.listeners('error').includes(logLost)) client.on('error', logLost);
  };
  pool.on('connect', attach);
  for (const client of (pool as unknown as { _clients?: EventEmitter[] })._clients ?? []) attach(client);
}
