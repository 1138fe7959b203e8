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

/** SQLSTATE of a driver error, if any. */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_CHECK_VIOLATION = '23514';
