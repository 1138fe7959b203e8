import { Injectable, Logger } from '@nestjs/common';
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
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
  ) {
    this.queues = { [QUEUES.maintenance]: maintenance, [QUEUES.payments]: payments, [QUEUES.executions]: executions, [QUEUES.webhooks]: webhooks };
  }

  private readonly logger = new Logger(JobProducer.name);

  async enqueue<N extends JobName>(name: N, data: JobPayloads[N], opts: JobsOptions & { jobId: string }): Promise<void> {
    await this.queueFor(name).add(name, data, opts);
  }

  /**
   * Wakes a worker for work whose row is already committed in Postgres. If Redis is down the
   * job is skipped (logged): the sweeper finds the row and enqueues it, so callers never fail on it.
   */
  async wake<N extends JobName>(name: N, data: JobPayloads[N], opts: JobsOptions & { jobId: string }): Promise<boolean> {
    try {
      await this.enqueue(name, data, opts);
      return true;
    } catch (err) {
      this.logger.warn({ job: name, jobId: opts.jobId, err: (err as Error).message }, 'could not enqueue; the sweeper will');
      return false;
    }
  }

  queueFor(name: JobName): Queue {
    return this.queues[JOB_QUEUE[name]];
  }

  allQueues(): Queue[] {
    return Object.values(this.queues);
  }
}
