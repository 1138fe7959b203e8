import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { JobsOptions, Queue } from 'bullmq';
import { JOB_QUEUE, JobName, JobPayloads, QUEUES } from './jobs';

/** The only way code enqueues work: typed by job name, routed to its queue. */
@Injectable()
export class JobProducer {
  private readonly queues: Record<string, Queue>;

  constructor(
    @InjectQueue(QUEUES.maintenance) maintenance: Queue,
    @InjectQueue(QUEUES.payments) payments: Queue,
    @InjectQueue(QUEUES.executions) executions: Queue,
  ) {
    this.queues = { [QUEUES.maintenance]: maintenance, [QUEUES.payments]: payments, [QUEUES.executions]: executions };
  }

  async enqueue<N extends JobName>(name: N, data: JobPayloads[N], opts: JobsOptions & { jobId: string }): Promise<void> {
    await this.queueFor(name).add(name, data, opts);
  }

  queueFor(name: JobName): Queue {
    return this.queues[JOB_QUEUE[name]];
  }

  allQueues(): Queue[] {
    return Object.values(this.queues);
  }
}
