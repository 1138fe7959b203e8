import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { EscrowService, RefundsService, WithdrawalsService } from '@app/payments';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/** Money-moving jobs. Each decodes its payload and calls one domain method, which claims its row. */
@Processor(QUEUES.payments)
export class PaymentsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    withdrawals: WithdrawalsService,
    refunds: RefundsService,
    escrow: EscrowService,
  ) {
    super();
    registry.register('withdrawal.process', (job) => withdrawals.process(job.data.withdrawalId));
    registry.register('refund.process', (job) => refunds.process(job.data.refundId));
    registry.register('escrow.release', (job) => escrow.release(job.data.holdId));
    registry.register('escrow.release-due', () => escrow.releaseDue());
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job);
  }
}
