import { Injectable } from '@nestjs/common';
import { ChainTokens } from '@app/chains';
import { NotFoundException } from '@app/common';
import { PaymentsService, PresentedPayment, RefundsService } from '@app/payments';
import { ExecutionEntity } from '../../entities/execution.entity';
import { Settlement } from '../../execution.types';
import { presentsOriginalPayment } from '../../execution-factory';
import { ExecutionsRepository } from '../../executions.repository';

export interface ExecutionView {
  execution: ExecutionEntity;
  settlement: Settlement;
  /** Whether the reader presented the original payment (only the payer sees the output). */
  isPayer: boolean;
}

/** Reads an execution with its settlement and refund, and whether the reader is its payer. */
@Injectable()
export class GetExecution {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    private readonly tokens: ChainTokens,
  ) {}

  /**
   * The reader is the payer with the original payment header, or, for an execution in a chain,
   * with a valid token of that chain (resolutions §4); a token that does not verify is refused.
   */
  async execute(id: string, payment: PresentedPayment | null, chainToken?: string): Promise<ExecutionView> {
    const claims = chainToken === undefined ? null : this.tokens.verify(chainToken);
    const execution = await this.repo.findById(id);
    if (!execution) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    const isPayer = presentsOriginalPayment(execution, payment) || (claims !== null && execution.chainId !== null && claims.cid === execution.chainId);
    return { execution, settlement: await this.settlementOf(execution), isPayer };
  }

  /** The settlement hash and receipt of a settled execution, and its refund if it has one. */
  async settlementOf(execution: ExecutionEntity): Promise<Settlement> {
    const refund = execution.refundId ? await this.refunds.get(execution.refundId) : null;
    if (execution.settlementStatus !== 'settled' || !execution.paymentId) return { txHash: null, receipt: null, refund };
    const payment = await this.payments.get(execution.paymentId);
    return payment ? { txHash: payment.txHash, receipt: this.payments.receipt(payment), refund } : { txHash: null, receipt: null, refund };
  }
}
