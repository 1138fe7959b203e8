import { Injectable } from '@nestjs/common';
import { ChainPort, ChainReadGrant, ExecutionEntity } from '@app/execution';
import { PresentedPayment } from '@app/x402';
import { ChainReadScope } from './chain-read-scope';
import { ChainTokens } from './chain-tokens';
import { ChainsRepository } from './chains.repository';
import { ChainFunding, ChainFundings } from './funding/chain-funding';
import { EndUnrunChain } from './usecases/end-unrun-chain/end-unrun-chain.usecase';

/** Execution's ChainPort, bound by ChainsModule: what a run, a read or a recovery in execution asks of its chain. */
@Injectable()
export class ExecutionChains extends ChainPort {
  constructor(
    private readonly fundings: ChainFundings,
    private readonly tokens: ChainTokens,
    private readonly scope: ChainReadScope,
    private readonly chains: ChainsRepository,
    private readonly endUnrun: EndUnrunChain,
  ) {
    super();
  }

  forNode(chainId: string, executionId: string): Promise<ChainFunding> {
    return this.fundings.forNode(chainId, executionId);
  }

  readGrant(chainToken: string): ChainReadGrant {
    const claims = this.tokens.verify(chainToken);
    return { assertReadable: (execution) => this.scope.assertReadable(claims, execution) };
  }

  paidChain(chainId: string, payment: PresentedPayment | null): Promise<boolean> {
    return this.scope.paidChain(chainId, payment);
  }

  async endUnfunded(root: ExecutionEntity): Promise<boolean> {
    if ((await this.chains.find(root.chainId!))?.status !== 'pending') return false;
    await this.endUnrun.execute(root);
    return true;
  }
}
