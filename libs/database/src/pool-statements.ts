import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import type { EntityManager } from 'typeorm';

/** Code that only runs SQL: an EntityManager is one, and so is the handle of a pipelined transaction. */
export type Queryable = Pick<EntityManager, 'query'>;

/**
 * Autocommit statements on one pooled connection of `pool`, issued together: one socket write,
 * answered in one round trip (pipeline mode), each on its own (one failing leaves the others alone).
 * `issue` sends them synchronously and returns their promises; the connection goes back to the pool
 * once every one has settled.
 */
export async function batchOn<P extends readonly Promise<unknown>[]>(
  pool: Pool,
  issue: (sql: Queryable) => P,
): Promise<{ [K in keyof P]: PromiseSettledResult<Awaited<P[K]>> }> {
  const client = await pool.connect();
  const stream = socketOf(client);
  stream.cork();
  let promises: P;
  try {
    promises = issue({ query: <R>(text: string, params?: unknown[]) => rowsOf<R>(client, text, params) });
  } catch (err) {
    stream.uncork();
    client.release();
    throw err;
  }
  stream.uncork();
  try {
    return (await Promise.allSettled(promises)) as { [K in keyof P]: PromiseSettledResult<Awaited<P[K]>> };
  } finally {
    client.release();
  }
}

/** `batchOn` for reads that all must answer: their results, or the first failure thrown. */
export async function readsOn<P extends readonly Promise<unknown>[]>(
  pool: Pool,
  issue: (sql: Queryable) => P,
): Promise<{ [K in keyof P]: Awaited<P[K]> }> {
  const settled = await batchOn(pool, issue);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { [K in keyof P]: Awaited<P[K]> };
}

/** The socket under a pooled connection, to cork statements into one write. */
export function socketOf(client: PoolClient): { cork(): void; uncork(): void } {
  return (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
}

/** A prepared statement's rows, on a connection or the pool. */
export async function rowsOf<R>(on: Pick<Pool, 'query'> | PoolClient, text: string, params?: unknown[]): Promise<R> {
  return (await on.query(prepared(text, params))).rows as R;
}

const statementNames = new Map<string, string>();

/**
 * A named prepared statement: each connection parses and plans it once, not on every call
 * (measured: parse + plan were a fifth of the execute path's time in Postgres). Only for SQL
 * whose text is fixed (values always as parameters), so the set of names stays small.
 */
export function prepared(text: string, values: unknown[] = []): QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `agora_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  return { name, text, values };
}
