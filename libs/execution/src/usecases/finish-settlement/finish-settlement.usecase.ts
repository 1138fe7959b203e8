import { Injectable } from '@nestjs/common';
import { PaymentSettlement } from '@app/payments';
import { ExecutionsRepository } from '../../executions.repository';
import { FundingSource } from '../../funding/x402-funding';
import { ChargeExecution } from '../charge-execution/charge-execution.usecase';

/**
 * The worker's `payment.settle`: finishes the settlement of a completed execution and its charge,
 * exactly once, whatever was left undone (a failed settlement due for its retry, one whose process
 * died while settling, or a settled payment whose charge did not happen).
 */
@Injectable()
export class FinishSettlement {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly funding: FundingSource,
    private readonly charge: ChargeExecution,
    private readonly settlement: PaymentSettlement,
  ) {}

  async execute(paymentId: string): Promise<string> {
    const execution = await this.repo.findByPayment(paymentId);
    if (!execution) return (await this.settlement.settle(paymentId)).status;
    const outcome = await this.charge.execute({ state: 'completed', execution, funding: await this.funding.stored(paymentId) });
    return outcome.execution.settlementStatus ?? 'none';
  }
}
