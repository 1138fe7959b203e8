import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerAccountEntity } from './entities/ledger-account.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { LedgerTransactionEntity } from './entities/ledger-transaction.entity';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { LedgerShardsOpener } from './ledger-shards.opener';
import { InvariantStatusEntity } from './entities/invariant-status.entity';
import { InvariantStatusRepository } from './invariant-status.repository';
import { CheckInvariants } from './usecases/check-invariants/check-invariants.usecase';

@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([LedgerAccountEntity, LedgerTransactionEntity, LedgerEntryEntity, InvariantStatusEntity]),
  ],
  providers: [LedgerRepository, LedgerService, LedgerShardsOpener, InvariantStatusRepository, CheckInvariants],
  exports: [LedgerService, InvariantStatusRepository, CheckInvariants],
})
export class LedgerModule {}
