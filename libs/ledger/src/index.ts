export * from './entities/ledger-account.entity';
export * from './entities/ledger-transaction.entity';
export * from './entities/ledger-entry.entity';
export * from './accounts';
export * from './ledger.service';
export * from './invariants';
export * from './ledger.module';
