import { Injectable } from '@nestjs/common';
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
  ) {}

  async execute(id: string, payment: PresentedPayment | null): Promise<ExecutionView> {
    const execution = await this.repo.findById(id);
    if (!execution) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    return { execution, settlement: await this.settlementOf(execution), isPayer: presentsOriginalPayment(execution, payment) };
  }

  /** The settlement hash and receipt of a settled execution, and its refund if it has one. */
  async settlementOf(execution: ExecutionEntity): Promise<Settlement> {
    const refund = execution.refundId ? await this.refunds.get(execution.refundId) : null;
    if (execution.settlementStatus !== 'settled' || !execution.paymentId) return { txHash: null, receipt: null, refund };
    const payment = await this.payments.get(execution.paymentId);
    return payment ? { txHash: payment.txHash, receipt: this.payments.receipt(payment), refund } : { txHash: null, receipt: null, refund };
  }
}
