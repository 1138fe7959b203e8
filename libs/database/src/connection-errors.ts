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

/**
 * SQLSTATEs after which nothing was committed and the same request may simply be sent again, and
 * the socket errors of a connection lost under a statement (reset mid-read or mid-write, refused
 * while Postgres restarts).
 */
const TRANSIENT_CODES = new Set(['40001', '40P01', '57P01', '57P02', '57P03', '53300', 'ECONNRESET', 'EPIPE', 'ECONNREFUSED']);
/** pg's own words for a lost connection: no pooled one in time, ended under a statement, or already broken when a statement was sent. */
const TRANSIENT_MESSAGES = [/timeout exceeded when trying to connect/, /Connection terminated/, /Client has encountered a connection error and is not queryable/];

/**
 * Whether a failure came from Postgres being momentarily unavailable (the pool had no connection
 * within its wait, a deadlock or serialization victim, a backend terminated or refusing connections,
 * a connection lost under a statement) rather than from the request: a retry can succeed, and is
 * safe: each transaction was kept whole or not at all (a connection lost at COMMIT leaves either),
 * and the request's idempotency key or payment finds whatever was kept.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  return typeof e?.message === 'string' && TRANSIENT_MESSAGES.some((m) => m.test(e.message as string));
}
