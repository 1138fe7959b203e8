import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { QUEUES } from '@app/queues';
import { DeliveryService, EventFanout } from '@app/webhooks';
import { JobHandlerRegistry } from '../job-handlers';

/** Event fan-out and delivery attempts (webhooks and execution callbacks); each claims its row first. */
@Processor(QUEUES.webhooks, { concurrency: 32 })
export class WebhooksProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    deliveries: DeliveryService,
    fanout: EventFanout,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.webhooks);
    jobs.register('event.fanout', (job) => fanout.execute(job.data.eventIds));
    jobs.register('webhook.deliver', (job) => deliveries.deliver(job.data.deliveryId));
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job);
  }
}
