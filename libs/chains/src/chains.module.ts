import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecuteTargetsModule } from '@app/agents';
import { LedgerModule } from '@app/ledger';
import { PaymentsModule } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { ChainBudget } from './chain-budget';
import { ChainTokens } from './chain-tokens';
import { ChainEntity, ChainNodeEntity } from './entities/chain.entity';
import { ChainsRepository } from './chains.repository';
import { ChainCost } from './usecases/chain-cost/chain-cost.usecase';
import { FinishChain } from './usecases/finish-chain/finish-chain.usecase';
import { GetChain } from './usecases/get-chain/get-chain.usecase';

/** Execution chains (resolutions §5): tokens, the budget's money, the chain and node rows, the end of a chain. */
@Module({
  imports: [TypeOrmModule.forFeature([ChainEntity, ChainNodeEntity]), LedgerModule, PaymentsModule, ExecuteTargetsModule],
  providers: [ChainTokens, ChainsRepository, ChainBudget, FinishChain, GetChain, ChainCost],
  exports: [ChainTokens, ChainsRepository, ChainBudget, FinishChain, GetChain, ChainCost],
})
export class ChainsModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly repo: ChainsRepository,
  ) {}

  /** What the worker's sweeper collects: chains whose root ended with nothing running, not yet final (their job was lost). */
  onModuleInit(): void {
    this.sweeps.register('chain.finish', async () => (await this.repo.finishable()).map((id) => ({ id, data: { chainId: id } })));
  }
}
