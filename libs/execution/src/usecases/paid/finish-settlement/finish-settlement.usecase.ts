import { Injectable } from '@nestjs/common';
import { ChainPort } from '../../../chain-port';
import { ExecutionsRepository } from '../../../executions.repository';
import { FundingSource } from '../../../funding-source';
import { ChargeExecution } from '../../run/charge-execution/charge-execution.usecase';

/**
 * The worker's `payment.settle`: finishes the settlement of a completed execution and its charge,
 * exactly once, whatever was left undone (a failed settlement due for its retry, one whose process
 * died while settling, or a settled payment whose charge did not happen). A chain root's payment
 * funds its chain instead: if the chain was never funded, it is ended unrun (ChainPort).
 */
@Injectable()
export class FinishSettlement {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly funding: FundingSource,
    private readonly charge: ChargeExecution,
    private readonly chains: ChainPort,
  ) {}

  async execute(paymentId: string): Promise<string> {
    const execution = await this.repo.findByPayment(paymentId);
    if (!execution) return this.funding.settleUncharged(paymentId);
    if (execution.chainId) {
      await this.chains.endUnfunded(execution);
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
