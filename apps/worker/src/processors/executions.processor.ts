import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { RunPendingExecution } from '@app/execution';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/** Async executions. */
@Processor(QUEUES.executions, { concurrency: 16 })
export class ExecutionsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    runPending: RunPendingExecution,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.executions);
    jobs.register('execution.run', async (job) => (await runPending.execute(job.data.executionId)).execution.status);
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job);
  }
}
