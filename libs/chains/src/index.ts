export * from './chain-budget';
export * from './chain-invariants';
export * from './chain-tokens';
export * from './chains.repository';
export * from './chains.module';
export * from './usecases/finish-chain/finish-chain.usecase';
export * from './usecases/get-chain/get-chain.usecase';
export * from './usecases/chain-cost/chain-cost.usecase';
