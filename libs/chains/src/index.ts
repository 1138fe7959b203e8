export { CHAIN_CHECKS } from './chain-invariants';
export { ChainTokens } from './chain-tokens';
export { ChainsModule } from './chains.module';
export { FinishChain } from './usecases/finish-chain/finish-chain.usecase';
export { CloseChain } from './usecases/close-chain/close-chain.usecase';
export { GetChain } from './usecases/get-chain/get-chain.usecase';
export type { ChainStatusView, ChainTreeNode } from './usecases/get-chain/get-chain.usecase';
export { ChainCost } from './usecases/chain-cost/chain-cost.usecase';
export type { ChainCostView } from './usecases/chain-cost/chain-cost.usecase';
export { ReleaseStaleNode } from './usecases/release-stale-node/release-stale-node.usecase';
export { ExecuteChainRoot } from './usecases/execute-chain-root/execute-chain-root.usecase';
export { ExecuteChained } from './usecases/execute-chained/execute-chained.usecase';
export type { ChainView } from './usecases/execute-chained/execute-chained.usecase';
export { BudgetCheck } from './usecases/budget-check/budget-check.usecase';
export type { BudgetEstimate } from './usecases/budget-check/budget-check.usecase';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { ChainBudget, ChainClosed } from './chain-budget';
export type { NewNode } from './chain-budget';
export { ChainsRepository } from './chains.repository';
