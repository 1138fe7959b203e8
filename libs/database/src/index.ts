export { buildDataSourceOptions } from './data-source.options';
export { DatabaseModule } from './database.module';
export {
  allWrites,
  allWritesNamed,
  PG_NOT_CLAIMED,
  PG_UNIQUE_VIOLATION,
  pgConstraint,
  pgDetail,
  pgErrorCode,
  queryRows,
  settledByName,
  TransactionRunner,
} from './transaction.runner';
export type { Queryable } from './transaction.runner';
export { PgListener } from './pg-listener';
export { CommitOutcomeUnknown, errorKind, isTransientDatabaseError } from './connection-errors';
export { ReplicaReads } from './replica-reads';
export { LeaseHeartbeat } from './lease-heartbeat';
export type { HoldLease } from './lease-heartbeat';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { MIGRATIONS } from './migrations';
