import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * What code that only runs SQL needs: an EntityManager is one, and so is the handle of a
 * pipelined transaction. Answers rows (UPDATE/DELETE through queryRows).
 */
export type Queryable = Pick<EntityManager, 'query'>;

/** Runs a unit of work in one Postgres transaction (READ COMMITTED). */
@Injectable()
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  /** With a TypeORM EntityManager (entity APIs available). */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * For hot paths: a transaction straight on a pooled pg connection in pipeline mode. BEGIN goes
   * out with the first statements, statements issued together share one round trip, and there
   * is no ORM layer per statement; statements are prepared once per connection, so their SQL
   * text must be fixed. Commits when `work` resolves (every statement it issued must be
   * awaited), rolls back when it throws.
   */
  async pipelined<T>(work: (sql: Queryable) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool().connect();
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    // BEGIN and everything work issues before its first await leave in one socket write.
    stream.cork();
    const begin = client.query('BEGIN');
    let broken: Error | undefined;
    try {
      let done = false;
      const sql: Queryable = {
        query: <R>(text: string, params?: unknown[]) => {
          // It would run after the COMMIT, outside the transaction.
          if (done) return Promise.reject(new Error('statement issued after the transaction ended'));
          return client.query(prepared(text, params)).then((r) => r.rows as R);
        },
      };
      let pending: Promise<T>;
      try {
        pending = work(sql);
      } finally {
        stream.uncork();
      }
      // COMMIT goes only after work has seen its results: a check in JavaScript that throws
      // (not only a failed statement) rolls everything back.
      const result = await pending.finally(() => (done = true));
      await begin;
      const committed = await client.query('COMMIT');
      if (committed.command !== 'COMMIT') throw new Error('transaction was rolled back at commit');
      return result;
    } catch (err) {
      await begin.catch(() => undefined);
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * A transaction in one round trip: BEGIN, the statements `issue` sends, and COMMIT leave
   * together, so row locks are held only while Postgres runs them. The contract: `issue` sends
   * every statement synchronously and returns their promises; each write method checks its
   * input before its first statement and afterwards only maps results and SQL errors. A failed
   * statement aborts the transaction (COMMIT turns into a rollback); a promise already rejected
   * before its statement left (a check in JavaScript) is seen before COMMIT leaves (the runner
   * waits one turn of the event loop) and rolls back instead; a statement sent later is refused.
   * Answers every promise's outcome; throws for a failure in JavaScript or of the COMMIT itself.
   */
  async oneTrip<P extends readonly Promise<unknown>[]>(issue: (sql: Queryable) => P): Promise<PromiseSettledResult<unknown>[]> {
    const client: PoolClient = await this.pool().connect();
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    let broken: Error | undefined;
    let closed = false;
    let statementFailed = false;
    const sql: Queryable = {
      query: <R>(text: string, params?: unknown[]) => {
        if (closed) return Promise.reject(new Error('statement issued after COMMIT was sent'));
        return client.query(prepared(text, params)).then(
          (r) => r.rows as R,
          (err: unknown) => {
            statementFailed = true;
            throw err;
          },
        );
      },
    };
    stream.cork();
    const begin = client.query('BEGIN');
    let promises: P;
    try {
      promises = issue(sql);
    } catch (err) {
      stream.uncork();
      await begin.catch(() => undefined);
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      client.release(broken);
      throw err;
    }
    stream.uncork();
    try {
      let jsFailure: { error: unknown } | null = null;
      for (const p of promises) p.catch((error: unknown) => (jsFailure ??= statementFailed ? null : { error }));
      await new Promise((resolve) => setImmediate(resolve));
      closed = true;
      const failedEarly = jsFailure as { error: unknown } | null;
      const end = client.query(failedEarly ? 'ROLLBACK' : 'COMMIT');
      const [outcomes, ended] = await Promise.all([Promise.allSettled(promises), end.then((r) => r, (e: Error) => e), begin.catch(() => undefined)]);
      if (ended instanceof Error) {
        broken = ended;
        throw ended;
      }
      if (failedEarly) throw failedEarly.error;
      return outcomes;
    } finally {
      client.release(broken);
    }
  }

  /** One statement on the pool (autocommit), without the ORM layer, prepared (fixed SQL text): its rows. */
  async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool().query(prepared(text, params))).rows as T[];
  }

  private pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }
}

const statementNames = new Map<string, string>();

/**
 * A named prepared statement: each connection parses and plans it once, not on every call
 * (measured: parse + plan were a fifth of the execute path's time in Postgres). Only for SQL
 * whose text is fixed (values always as parameters), so the set of names stays small.
 */
function prepared(text: string, values: unknown[] = []): QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `agora_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  return { name, text, values };
}

/**
 * Awaits statements issued together on one transaction's connection. In pipeline mode they go
 * out in one round trip and run in issue order; a failing one aborts the transaction (those
 * after it fail too, later). Rejects at the first failure (answers come in issue order, so that
 * is the failed statement, or a check in JavaScript that failed before its statement left, which
 * TransactionRunner.oneTrip must see before COMMIT leaves); every promise keeps a handler.
 */
export function allWrites<T extends readonly unknown[]>(writes: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    for (const w of writes) w.catch(reject);
    Promise.all(writes).then((values) => resolve(values as unknown as T), () => undefined);
  });
}

/** SQLSTATE of a driver error, if any. */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
/** Raised by the `claimed(n, what)` SQL function when a conditional write touched no row. */
export const PG_NOT_CLAIMED = 'AG001';
export const PG_CHECK_VIOLATION = '23514';

/**
 * Rows of a query. TypeORM's postgres driver answers UPDATE/DELETE with `[rows, rowCount]`
 * and everything else with `rows`; this gives rows either way (for UPDATE ... RETURNING).
 */
export async function queryRows<T>(manager: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
