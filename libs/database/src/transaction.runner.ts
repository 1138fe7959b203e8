import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { batchOn, Queryable, readsOn, rowsOf, socketOf } from './pool-statements';
import { CommitOutcomeUnknown } from './connection-errors';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

export type { Queryable };

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
    const tx = new OpenTransaction(await this.pool().connect());
    try {
      let pending: Promise<T>;
      try {
        pending = work(tx.sql);
      } finally {
        tx.flush();
      }
      // COMMIT goes only after work has seen its results: a check in JavaScript that throws
      // (not only a failed statement) rolls everything back.
      const result = await pending.finally(() => tx.close());
      await tx.begin;
      const committed = await tx.end('COMMIT');
      if (committed instanceof Error) throw CommitOutcomeUnknown.of(committed);
      if (committed.command !== 'COMMIT') throw new Error('transaction was rolled back at commit');
      return result;
    } catch (err) {
      await tx.rollback();
      throw err;
    } finally {
      tx.release();
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
  async oneTrip<P extends readonly Promise<unknown>[]>(
    issue: (sql: Queryable) => P,
  ): Promise<PromiseSettledResult<unknown>[]> {
    const tx = new OpenTransaction(await this.pool().connect());
    try {
      let promises: P;
      try {
        promises = issue(tx.sql);
      } catch (err) {
        tx.flush();
        await tx.rollback();
        throw err;
      }
      let jsFailure: { error: unknown } | null = null;
      for (const p of promises) p.catch((error: unknown) => (jsFailure ??= tx.statementFailed ? null : { error }));
      // Still corked: BEGIN, the statements and COMMIT (or ROLLBACK) leave in one socket write.
      await new Promise((resolve) => setImmediate(resolve));
      tx.close();
      const failedEarly = jsFailure as { error: unknown } | null;
      const ended = tx.end(failedEarly ? 'ROLLBACK' : 'COMMIT');
      tx.flush();
      const [outcomes, end] = await Promise.all([Promise.allSettled(promises), ended, tx.begin.catch(() => undefined)]);
      // BEGIN, the statements and COMMIT left together: a connection lost now may have kept them.
      if (end instanceof Error) throw failedEarly ? end : CommitOutcomeUnknown.of(end);
      if (failedEarly) throw failedEarly.error;
      return outcomes;
    } finally {
      tx.release();
    }
  }

  /**
   * Autocommit statements on one pooled connection, issued together: one socket write, answered
   * in one round trip (pipeline mode), each on its own (one failing leaves the others alone).
   * `issue` sends them synchronously and returns their promises; the connection goes back to
   * the pool once every one has settled.
   */
  batch<P extends readonly Promise<unknown>[]>(
    issue: (sql: Queryable) => P,
  ): Promise<{ [K in keyof P]: PromiseSettledResult<Awaited<P[K]>> }> {
    return batchOn(this.pool(), issue);
  }

  /** `batch` for reads that all must answer: their results, or the first failure thrown. */
  reads<P extends readonly Promise<unknown>[]>(
    issue: (sql: Queryable) => P,
  ): Promise<{ [K in keyof P]: Awaited<P[K]> }> {
    return readsOn(this.pool(), issue);
  }

  /** One statement on the pool (autocommit), without the ORM layer, prepared (fixed SQL text): its rows. */
  query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return rowsOf<T[]>(this.pool(), text, params);
  }

  /** The pool as a Queryable: each statement on its own (autocommit), prepared. */
  readonly pooled: Queryable = { query: <R>(text: string, params?: unknown[]) => rowsOf<R>(this.pool(), text, params) };

  private pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }
}

/**
 * A pooled connection inside a transaction, pipelined: BEGIN and the statements after it stay
 * corked (one socket write) until `flush`; statements sent after `close` are refused, since
 * they would run outside the transaction.
 */
class OpenTransaction {
  readonly begin: Promise<unknown>;
  readonly sql: Queryable;
  /** A statement answered with an error (the transaction is aborted). */
  statementFailed = false;
  private closed = false;
  private corked = true;
  private broken: Error | undefined;
  private readonly stream: { cork(): void; uncork(): void };

  constructor(private readonly client: PoolClient) {
    this.stream = socketOf(client);
    this.stream.cork();
    this.begin = client.query('BEGIN');
    this.sql = {
      query: <R>(text: string, params?: unknown[]) => {
        if (this.closed)
          return Promise.reject(new Error('statement issued after the transaction ended: after COMMIT was sent'));
        return rowsOf<R>(client, text, params).catch((err: unknown) => {
          this.statementFailed = true;
          throw err;
        });
      },
    };
  }

  flush(): void {
    if (!this.corked) return;
    this.corked = false;
    this.stream.uncork();
  }

  close(): void {
    this.closed = true;
  }

  /** COMMIT or ROLLBACK; a failure comes back as the Error (and marks the connection broken). */
  async end(command: 'COMMIT' | 'ROLLBACK'): Promise<{ command: string } | Error> {
    this.close();
    try {
      return await this.client.query(command);
    } catch (err) {
      return (this.broken = err as Error);
    }
  }

  async rollback(): Promise<void> {
    this.flush();
    await this.begin.catch(() => undefined);
    await this.end('ROLLBACK');
  }

  release(): void {
    this.client.release(this.broken);
  }
}

/**
 * Awaits statements issued together on one transaction's connection. In pipeline mode they go
 * out in one round trip and run in issue order; a failing one aborts the transaction (those
 * after it fail too, with "current transaction is aborted"). Rejects at the first failure that
 * is not such a consequence: the failed statement, or a check in JavaScript that failed before
 * its statement left, which TransactionRunner.oneTrip must see before COMMIT leaves. The cause
 * wins however many promise steps a caller's wrapper (an error mapped in an async function)
 * puts between the statement and this; every promise keeps a handler.
 */
export function allWrites<T extends readonly unknown[]>(
  writes: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    for (const w of writes) w.catch((err: unknown) => pgErrorCode(err) !== PG_IN_FAILED_TRANSACTION && reject(err));
    void Promise.allSettled(writes).then((outcomes) => {
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) reject(failed.reason);
      else resolve(outcomes.map((o) => (o as PromiseFulfilledResult<unknown>).value) as unknown as T);
    });
  });
}

/**
 * allWrites for statements named where they are issued: an object literal's properties are
 * evaluated, so its statements issued, in the order written; the results come back by name.
 */
export async function allWritesNamed<R extends Record<string, Promise<unknown>>>(
  writes: R,
): Promise<{ [K in keyof R]: Awaited<R[K]> }> {
  const values = await allWrites(Object.values(writes));
  return byName(writes, values) as { [K in keyof R]: Awaited<R[K]> };
}

/** Outcomes of statements issued from a named record (in its key order), by the same names. */
export function settledByName<R extends Record<string, Promise<unknown>>>(
  writes: R,
  outcomes: readonly PromiseSettledResult<unknown>[],
): { [K in keyof R]: PromiseSettledResult<Awaited<R[K]>> } {
  return byName(writes, outcomes) as { [K in keyof R]: PromiseSettledResult<Awaited<R[K]>> };
}

function byName(writes: Record<string, unknown>, values: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(Object.keys(writes).map((name, i) => [name, values.at(i)]));
}

/** SQLSTATE of a driver error, if any. */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The DETAIL of a Postgres error (e.g. what a guard function reports), whether TypeORM wrapped it or not. */
export function pgDetail(err: unknown): string | undefined {
  const e = err as { detail?: unknown; driverError?: { detail?: unknown } };
  const detail = e?.driverError?.detail ?? e?.detail;
  return typeof detail === 'string' ? detail : undefined;
}

/** The constraint a Postgres error names (unique and check violations), whether TypeORM wrapped it or not. */
export function pgConstraint(err: unknown): string | undefined {
  const e = err as { constraint?: unknown; driverError?: { constraint?: unknown } };
  const name = e?.driverError?.constraint ?? e?.constraint;
  return typeof name === 'string' ? name : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
/** A statement sent after another aborted the transaction. */
export const PG_IN_FAILED_TRANSACTION = '25P02';
/** Raised by the `claimed(n, what)` SQL function when a conditional write touched no row. */
export const PG_NOT_CLAIMED = 'AG001';
export const PG_CHECK_VIOLATION = '23514';

/**
 * Rows of a query. TypeORM's postgres driver answers UPDATE/DELETE with `[rows, rowCount]`
 * and everything else with `rows`; this gives rows either way (for UPDATE ... RETURNING).
 */
export async function queryRows<T>(manager: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}
