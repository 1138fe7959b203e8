import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerAccountEntity } from './entities/ledger-account.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { LedgerTransactionEntity } from './entities/ledger-transaction.entity';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { LedgerAccounts } from './ledger-accounts';
import { LedgerShardsOpener } from './ledger-shards.opener';
import { InvariantStatusEntity } from './entities/invariant-status.entity';
import { InvariantCheckEntity } from './entities/invariant-check.entity';
import { InvariantStatusRepository } from './invariant-status.repository';
import { CheckInvariants } from './usecases/check-invariants/check-invariants.usecase';
import { GetInvariantHistory } from './usecases/get-invariant-history/get-invariant-history.usecase';
import { PruneInvariantHistory } from './usecases/prune-invariant-history/prune-invariant-history.usecase';

@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      LedgerAccountEntity,
      LedgerTransactionEntity,
      LedgerEntryEntity,
      InvariantStatusEntity,
      InvariantCheckEntity,
    ]),
  ],
  providers: [
    LedgerRepository,
    LedgerService,
    LedgerAccounts,
    LedgerShardsOpener,
    InvariantStatusRepository,
    CheckInvariants,
    GetInvariantHistory,
    PruneInvariantHistory,
  ],
  exports: [
    LedgerService,
    LedgerAccounts,
    InvariantStatusRepository,
    CheckInvariants,
    GetInvariantHistory,
    PruneInvariantHistory,
  ],
})
export class LedgerModule {}
