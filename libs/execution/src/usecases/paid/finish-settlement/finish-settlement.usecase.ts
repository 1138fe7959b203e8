import { Injectable } from '@nestjs/common';
import { ChainsRepository } from '@app/chains';
import { ExecutionsRepository } from '../../../executions.repository';
import { FundingSource } from '../../../funding-source';
import { ChargeExecution } from '../../run/charge-execution/charge-execution.usecase';
import { EndUnrunChain } from '../../chain/end-unrun-chain/end-unrun-chain.usecase';

/**
 * The worker's `payment.settle`: finishes the settlement of a completed execution and its charge,
 * exactly once, whatever was left undone (a failed settlement due for its retry, one whose process
 * died while settling, or a settled payment whose charge did not happen). A chain root's payment
 * funds its chain instead: if the chain was never funded, EndUnrunChain.
 */
@Injectable()
export class FinishSettlement {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly funding: FundingSource,
    private readonly charge: ChargeExecution,
    private readonly chains: ChainsRepository,
    private readonly endUnrun: EndUnrunChain,
  ) {}

  async execute(paymentId: string): Promise<string> {
    const execution = await this.repo.findByPayment(paymentId);
    if (!execution) return this.funding.settleUncharged(paymentId);
    if (execution.chainId) {
      const chain = await this.chains.find(execution.chainId);
      if (chain?.status === 'pending') await this.endUnrun.execute(execution);
      return 'chain';
    }
    const outcome = await this.charge.execute({
      state: 'completed',
      execution,
      funding: await this.funding.stored(paymentId),
    });
    return outcome.execution.settlementStatus ?? 'none';
  }
}
