import { Logger } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import type { Pool } from 'pg';

const logger = new Logger('PostgresConnections');
const logLost = (err: Error) =>
  logger.warn({ err: err.message }, 'a Postgres connection was lost; the pool replaces it');

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
 * SQLSTATEs after which nothing was committed and the same request may simply be sent again (the
 * class 08 ones are "connection exceptions"), and the socket errors of a connection lost under a statement
 * (reset mid-read or mid-write, refused while Postgres restarts).
 */
const TRANSIENT_CODES = new Set([
  ...['40001', '40P01', '40003', '57P01', '57P02', '57P03', '57P05', '53300'],
  ...['08000', '08001', '08003', '08004', '08006', '08007'],
  ...['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT'],
]);
/**
 * The words pg, pg-pool and TypeORM use for a lost connection: no pooled one in time, the connect
 * timed out, ended under a statement, already broken or closed when a statement was sent, or a
 * TypeORM runner (or the connection it provided) released under a transaction because its connection died.
 */
const TRANSIENT_MESSAGES = [
  /timeout exceeded when trying to connect/,
  /^timeout expired$/,
  /Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /Query runner already released/,
  // TypeORM releases a transaction's runner when its connection reports an error (a killed backend);
  // the transaction's next statement then fails with this (seen in the G5 fault test as a 500).
  /Database connection provided by a query runner was already released/,
];

/**
 * Whether a failure came from Postgres being momentarily unavailable (the pool had no connection
 * within its wait, a deadlock or serialization victim, a backend terminated or refusing connections,
 * a connection lost under a statement) rather than from the request: a retry can succeed, and is
 * safe: each transaction was kept whole or not at all (a connection lost at COMMIT leaves either),
 * and the request's idempotency key or payment finds whatever was kept. A wrapper's `cause` (and an
 * AggregateError's members) count as the failure itself.
 */
export function isTransientDatabaseError(err: unknown, depth = 0): boolean {
  const e = err as {
    code?: unknown;
    message?: unknown;
    driverError?: { code?: unknown };
    cause?: unknown;
    errors?: unknown;
  };
  if (e === null || typeof e !== 'object' || depth > 4) return false;
  const code = e.driverError?.code ?? e.code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (e.cause !== undefined && isTransientDatabaseError(e.cause, depth + 1)) return true;
  return (
    Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => isTransientDatabaseError(x, depth + 1))
  );
}

/** What a log line may say of an unexpected error to tell its kind apart: its class, its code (SQLSTATE or errno) and its cause's. */
export function errorKind(
  err: unknown,
  depth = 0,
): { class: string; code?: string; cause?: ReturnType<typeof errorKind> } {
  const e = err as {
    constructor?: { name?: string };
    code?: unknown;
    driverError?: { code?: unknown };
    cause?: unknown;
  } | null;
  if (e === null || typeof e !== 'object') return { class: typeof err };
  const code = e.driverError?.code ?? e.code;
  return {
    class: e.constructor?.name ?? 'Object',
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(e.cause !== undefined && depth < 3 ? { cause: errorKind(e.cause, depth + 1) } : {}),
  };
}

/** SQLSTATEs a COMMIT can fail with that say Postgres rolled the transaction back (a serialization or deadlock victim). */
const ROLLED_BACK_CODES = new Set(['40001', '40P01', '40003']);

/**
 * A COMMIT whose outcome is not known: the connection was lost while it was sent or answered, so
 * the transaction may have been kept whole or not at all. Still transient (its `cause`), so a caller
 * that wrote nothing that matters before answers it as before; one whose transaction may have moved
 * money tells it apart (`instanceof`).
 */
export class CommitOutcomeUnknown extends Error {
  constructor(override readonly cause: Error) {
    super(`COMMIT outcome unknown: ${cause.message}`);
    this.name = 'CommitOutcomeUnknown';
  }

  /** The error to throw for a failed COMMIT: this, when the failure was the connection's (not a rollback Postgres decided). */
  static of(err: Error): Error {
    const e = err as { code?: unknown; driverError?: { code?: unknown } };
    const code = e.driverError?.code ?? e.code;
    if (typeof code === 'string' && ROLLED_BACK_CODES.has(code)) return err;
    return isTransientDatabaseError(err) ? new CommitOutcomeUnknown(err) : err;
  }
}
