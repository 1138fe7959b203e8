import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerAccountEntity } from './entities/ledger-account.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { LedgerTransactionEntity } from './entities/ledger-transaction.entity';
import { LedgerService } from './ledger.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([LedgerAccountEntity, LedgerTransactionEntity, LedgerEntryEntity])],
  providers: [LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
