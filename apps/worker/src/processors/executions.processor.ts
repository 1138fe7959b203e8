import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { AppConfig } from '@app/config';
import { RunPendingExecution } from '@app/execution';
import { FairShare, QUEUES } from '@app/queues';
import { JOB_DEFERRED, JobHandlerRegistry } from '../job-handlers';
import { WorkShares } from '../work-shares';

/**
 * Async executions; at most WORKER_AGENT_CONCURRENCY of one agent's runs at once, then the shares of
 * its owner, its payer and the pool of unfunded owners (`WorkShares`); the rest wait their turn, delayed.
 */
@Processor(QUEUES.executions, { concurrency: 16 })
export class ExecutionsProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    runPending: RunPendingExecution,
    share: FairShare,
    config: AppConfig,
    shares: WorkShares,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.executions);
    jobs.register('execution.run', async (job, run) => {
      const outcome = await runPending.execute(job.data.executionId, {
        gate: share.gate(run, 'agent', config.workerAgentConcurrency, () => shares.ofRun(job.data.executionId)),
      });
      return outcome.deferred ? JOB_DEFERRED : outcome.execution.status;
    });
  }

  process(job: Job, token?: string): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job, token);
  }
}
