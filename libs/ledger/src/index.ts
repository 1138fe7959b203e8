export { LedgerAccountEntity } from './entities/ledger-account.entity';
export { LedgerTransactionEntity } from './entities/ledger-transaction.entity';
export { LedgerEntryEntity } from './entities/ledger-entry.entity';
export { Accounts, transfer } from './accounts';
export { shardIndex } from './ledger-shards';
export type { AccountKind, AccountRef, Leg } from './accounts';
export { LedgerBoundsError, LedgerService, UnbalancedPostingError } from './ledger.service';
export { LedgerAccounts } from './ledger-accounts';
export type { PostingInput, PostingResult } from './ledger.service';
export { LEDGER_CHECKS, runInvariantChecks } from './invariants';
export type { InvariantCheck, InvariantReport } from './invariants';
export {
  INVARIANT_HISTORY_DAYS,
  INVARIANT_HISTORY_HEARTBEAT_MS,
  InvariantStatusRepository,
} from './invariant-status.repository';
export type { InvariantCheckRecord } from './invariant-status.repository';
export { InvariantStatusEntity } from './entities/invariant-status.entity';
export { GetInvariantHistory } from './usecases/get-invariant-history/get-invariant-history.usecase';
export type { InvariantHistory } from './usecases/get-invariant-history/get-invariant-history.usecase';
export { PruneInvariantHistory } from './usecases/prune-invariant-history/prune-invariant-history.usecase';
export { CheckInvariants } from './usecases/check-invariants/check-invariants.usecase';
export { LedgerModule } from './ledger.module';
