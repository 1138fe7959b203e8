export * from './data-source.options';
export * from './database.module';
export * from './transaction.runner';
export * from './migrations';
export * from './connection-errors';
