import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** Runs a unit of work in one Postgres transaction (READ COMMITTED). */
@Injectable()
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}

/**
 * Awaits statements issued together on one transaction's connection. In pipeline mode they go
 * out in one round trip and run in issue order; a failing one aborts the transaction (those
 * after it fail too), so this waits for all of them and throws the first failure in issue order.
 */
export async function allWrites<T extends readonly unknown[]>(writes: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** SQLSTATE of a driver error, if any. */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_CHECK_VIOLATION = '23514';

/**
 * Rows of a query. TypeORM's postgres driver answers UPDATE/DELETE with `[rows, rowCount]`
 * and everything else with `rows`; this gives rows either way (for UPDATE ... RETURNING).
 */
export async function queryRows<T>(manager: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
