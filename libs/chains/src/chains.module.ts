import { Global, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecuteTargetReaderModule } from '@app/agents';
import { AuthModule } from '@app/auth';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ChainPort, ExecutionModule } from '@app/execution';
import { PaymentsModule } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { ChainBudget } from './chain-budget';
import { ChainFundings } from './funding/chain-funding';
import { ChainReadScope } from './chain-read-scope';
import { ChainTokens } from './chain-tokens';
import { ChainEntity, ChainNodeEntity } from './entities/chain.entity';
import { ChainsRepository } from './chains.repository';
import { ExecutionChains } from './execution-chains';
import { AdmitChainCall } from './usecases/admit-chain-call/admit-chain-call.usecase';
import { BudgetCheck } from './usecases/budget-check/budget-check.usecase';
import { ChainCost } from './usecases/chain-cost/chain-cost.usecase';
import { FinishChain } from './usecases/finish-chain/finish-chain.usecase';
import { CloseChain } from './usecases/close-chain/close-chain.usecase';
import { EndUnrunChain } from './usecases/end-unrun-chain/end-unrun-chain.usecase';
import { ExecuteChainRoot } from './usecases/execute-chain-root/execute-chain-root.usecase';
import { ExecuteChained } from './usecases/execute-chained/execute-chained.usecase';
import { GetChain } from './usecases/get-chain/get-chain.usecase';
import { ReleaseStaleNode } from './usecases/release-stale-node/release-stale-node.usecase';

/**
 * Execution chains (resolutions §5): tokens, the budget's money, the chain and node rows, the end of
 * a chain, and the chain product built on paid execution (a chain root, a chained call, the budget
 * check, an unrun chain's end). Global for one reason: it binds execution's ChainPort, which
 * ExecutionModule (a tier below, so it cannot import this module) injects; a lower lib cannot name
 * the rest of its providers (the dependency rules refuse the import).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ChainEntity, ChainNodeEntity]),
    AuthModule,
    PaymentsModule,
    ExecuteTargetReaderModule,
    ExecutionModule,
  ],
  providers: [
    AdmitChainCall,
    ExecuteChainRoot,
    ExecuteChained,
    BudgetCheck,
    EndUnrunChain,
    ExecutionChains,
    { provide: ChainPort, useExisting: ExecutionChains },
    ChainTokens,
    ChainReadScope,
    ChainsRepository,
    ChainBudget,
    ChainFundings,
    FinishChain,
    CloseChain,
    GetChain,
    ChainCost,
    ReleaseStaleNode,
  ],
  exports: [
    ChainPort,
    ExecuteChainRoot,
    ExecuteChained,
    BudgetCheck,
    ChainTokens,
    ChainReadScope,
    ChainsRepository,
    ChainBudget,
    ChainFundings,
    FinishChain,
    CloseChain,
    GetChain,
    ChainCost,
    ReleaseStaleNode,
  ],
})
export class ChainsModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly repo: ChainsRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** What the worker's sweeper collects: chains that can be finished, not yet final (their job was lost); stale calls' reservations. */
  onModuleInit(): void {
    this.sweeps.register('chain.finish', async () =>
      (await this.repo.finishable(this.clock.now())).map((id) => ({ id, data: { chainId: id } })),
    );
    // Chained calls whose process died: older than the execution timeout and a minute, never written.
    this.sweeps.register('chain.release-node', async () =>
      (await this.repo.staleNodes(new Date(this.clock.nowMs() - this.config.executionTimeoutMs - 60_000))).map(
        (id) => ({ id, data: { executionId: id } }),
      ),
    );
  }
}
