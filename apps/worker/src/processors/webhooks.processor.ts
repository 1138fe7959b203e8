import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { AppConfig } from '@app/config';
import { FairShare, QUEUES } from '@app/queues';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { JOB_DEFERRED, JobHandlerRegistry } from '../job-handlers';
import { WorkShares } from '../work-shares';

/**
 * Event fan-out and delivery attempts (webhooks and execution callbacks); each claims its row first.
 * At most WEBHOOK_HOST_CONCURRENCY attempts to one destination host at once, then the shares of its party
 * (a callback's payer, a webhook's agent owner) and the pool of unfunded ones (`WorkShares`); the rest wait their turn, delayed.
 */
@Processor(QUEUES.webhooks, { concurrency: 32 })
export class WebhooksProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    deliverAttempt: DeliverAttempt,
    fanout: EventFanout,
    share: FairShare,
    config: AppConfig,
    shares: WorkShares,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.webhooks);
    jobs.register('event.fanout', (job) => fanout.execute(job.data.eventIds));
    jobs.register('webhook.deliver', async (job, run) => {
      const outcome = await deliverAttempt.execute(
        job.data.deliveryId,
        share.gate(run, 'host', config.webhookHostConcurrency, () => shares.ofDelivery(job.data.deliveryId)),
      );
      return outcome === 'deferred' ? JOB_DEFERRED : outcome;
    });
  }

  process(job: Job, token?: string): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job, token);
  }
}
