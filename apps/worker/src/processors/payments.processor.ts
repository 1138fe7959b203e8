import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { EscrowService, PaymentsService, WithdrawalsService } from '@app/payments';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/** Money-moving jobs. Each decodes its payload and calls one domain method, which claims its row. */
@Processor(QUEUES.payments)
export class PaymentsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    withdrawals: WithdrawalsService,
    escrow: EscrowService,
    payments: PaymentsService,
  ) {
    super();
    registry.register('withdrawal.process', (job) => withdrawals.process(job.data.withdrawalId));
    registry.register('escrow.release', (job) => escrow.release(job.data.holdId));
    registry.register('payment.settle', async (job) => (await payments.settle(job.data.paymentId)).status);
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job);
  }
}
