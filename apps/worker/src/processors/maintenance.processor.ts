import { Logger } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { PruneHealthHistory } from '@app/agents';
import { PruneUsedAuthMessages } from '@app/auth';
import { PruneExecutionPayloads, PruneIdempotencyKeys } from '@app/execution';
import { PruneInvariantHistory } from '@app/ledger';
import { QUEUES } from '@app/queues';
import { CountMaturedSpend } from '@app/reputation';
import { JobHandlerRegistry } from '../job-handlers';

/** Housekeeping jobs. Thin: each job decodes its payload and calls one domain method. */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly registry: JobHandlerRegistry,
    pruneAuthMessages: PruneUsedAuthMessages,
    pruneKeys: PruneIdempotencyKeys,
    prunePayloads: PruneExecutionPayloads,
    pruneHealth: PruneHealthHistory,
    pruneInvariants: PruneInvariantHistory,
    countMaturedSpend: CountMaturedSpend,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.maintenance);
    jobs.register('auth-messages.prune', async () => {
      const deleted = await pruneAuthMessages.execute();
      this.logger.log({ deleted }, 'pruned spent auth messages');
      return { deleted };
    });
    jobs.register('idempotency-keys.prune', () => pruneKeys.execute());
    jobs.register('execution-payloads.prune', () => prunePayloads.execute());
    jobs.register('agent-health.prune', () => pruneHealth.execute());
    jobs.register('invariant-checks.prune', () => pruneInvariants.execute());
    jobs.register('payer-spend.mature', () => countMaturedSpend.execute());
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job);
  }
}
