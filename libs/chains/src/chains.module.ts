import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecuteTargetReaderModule } from '@app/agents';
import { AuthModule } from '@app/auth';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { LedgerModule } from '@app/ledger';
import { PaymentsModule } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { ChainBudget } from './chain-budget';
import { ChainFundings } from './funding/chain-funding';
import { ChainReadScope } from './chain-read-scope';
import { ChainTokens } from './chain-tokens';
import { ChainEntity, ChainNodeEntity } from './entities/chain.entity';
import { ChainsRepository } from './chains.repository';
import { ChainCost } from './usecases/chain-cost/chain-cost.usecase';
import { FinishChain } from './usecases/finish-chain/finish-chain.usecase';
import { CloseChain } from './usecases/close-chain/close-chain.usecase';
import { GetChain } from './usecases/get-chain/get-chain.usecase';
import { ReleaseStaleNode } from './usecases/release-stale-node/release-stale-node.usecase';

/** Execution chains (resolutions §5): tokens, the budget's money, the chain and node rows, the end of a chain. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ChainEntity, ChainNodeEntity]),
    AuthModule,
    LedgerModule,
    PaymentsModule,
    ExecuteTargetReaderModule,
  ],
  providers: [
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
