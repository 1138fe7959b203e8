import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { FinishSettlement, RunPendingExecution } from '@app/execution';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/** Async executions, and settlement retries (which finish the execution a payment paid for). */
@Processor(QUEUES.executions, { concurrency: 16 })
export class ExecutionsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    runPending: RunPendingExecution,
    finishSettlement: FinishSettlement,
  ) {
    super();
    registry.register('execution.run', async (job) => (await runPending.execute(job.data.executionId)).execution.status);
    registry.register('payment.settle', (job) => finishSettlement.execute(job.data.paymentId));
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job);
  }
}
