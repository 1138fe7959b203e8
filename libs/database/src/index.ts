export { buildDataSourceOptions } from './data-source.options';
export { DatabaseModule } from './database.module';
export {
  allWrites,
  PG_NOT_CLAIMED,
  PG_UNIQUE_VIOLATION,
  pgConstraint,
  pgDetail,
  pgErrorCode,
  queryRows,
  TransactionRunner,
} from './transaction.runner';
export type { Queryable } from './transaction.runner';
export { MIGRATIONS } from './migrations';
export { PgListener } from './pg-listener';
export { CommitOutcomeUnknown, errorKind, isTransientDatabaseError } from './connection-errors';
export { compareLsn, ReplicaReads } from './replica-reads';
export { LeaseHeartbeat } from './lease-heartbeat';
export type { HoldLease, LeaseRenewal } from './lease-heartbeat';
