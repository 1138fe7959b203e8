export * from './chain-budget';
export * from './chain-invariants';
export * from './chain-tokens';
export * from './chains.repository';
export * from './chains.module';
export * from './usecases/finish-chain/finish-chain.usecase';
