import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { ExecutionService } from '@app/execution';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/** Async executions, and settlement retries (which finish the execution a payment paid for). */
@Processor(QUEUES.executions, { concurrency: 16 })
export class ExecutionsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    executions: ExecutionService,
  ) {
    super();
    registry.register('execution.run', async (job) => (await executions.run(job.data.executionId)).execution.status);
    registry.register('payment.settle', (job) => executions.settleByPayment(job.data.paymentId));
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job);
  }
}
