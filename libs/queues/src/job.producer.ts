import { traceCarrier } from '@app/tracing';
import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { JobsOptions, Queue } from 'bullmq';
import { AppConfig } from '@app/config';
import { JOB_QUEUE, JobName, JobPayloads, QUEUES } from './jobs';

/** The only way code enqueues work: typed by job name, routed to its queue. */
/** Where a job's data carries the W3C trace context of its producer (absent when tracing is off). */
export const TRACE_FIELD = '_trace';

@Injectable()
export class JobProducer {
  private readonly queues: Record<string, Queue>;

  constructor(
    @InjectQueue(QUEUES.maintenance) maintenance: Queue,
    @InjectQueue(QUEUES.money) money: Queue,
    @InjectQueue(QUEUES.executions) executions: Queue,
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
    private readonly config: AppConfig,
  ) {
    this.queues = {
      [QUEUES.maintenance]: maintenance,
      [QUEUES.money]: money,
      [QUEUES.executions]: executions,
      [QUEUES.webhooks]: webhooks,
    };
  }

  private readonly logger = new Logger(JobProducer.name);

  async enqueue<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    opts: JobsOptions & { jobId: string },
  ): Promise<void> {
    // The trace of the request (or job) that enqueues travels with the job; the worker's span links to it.
    const trace = traceCarrier();
    await this.queueFor(name).add(name, trace.traceparent ? { ...data, [TRACE_FIELD]: trace } : data, opts);
  }

  /**
   * Wakes a worker for work whose row is already committed in Postgres. If Redis is down the
   * job is skipped (logged): the sweeper finds the row and enqueues it, so callers never fail on it.
   * Bounded by ENQUEUE_TIMEOUT_MS: with Redis down, `queue.add` never rejects (the connection
   * retries for ever, `maxRetriesPerRequest: null`), and a request that has committed its work must
   * still answer. The add left waiting completes when Redis returns; job ids make it a duplicate of
   * the sweeper's at worst, and processors claim their rows.
   */
  async wake<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    opts: JobsOptions & { jobId: string },
  ): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.config.enqueueTimeoutMs);
    });
    try {
      const added = this.enqueue(name, data, opts);
      added.catch(() => undefined); // a late failure after the timeout is the sweeper's to cover
      if ((await Promise.race([added.then(() => 'added' as const), timedOut])) === 'timeout') {
        this.logger.warn(
          { job: name, jobId: opts.jobId, timeoutMs: this.config.enqueueTimeoutMs },
          'Redis did not take the job in time; the sweeper will',
        );
        return false;
      }
      return true;
    } catch (err) {
      this.logger.warn(
        { job: name, jobId: opts.jobId, err: (err as Error).message },
        'could not enqueue; the sweeper will',
      );
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Jobs in each queue by state (what the metrics report at scrape time). */
  async depths(): Promise<{ queue: string; state: string; count: number }[]> {
    const out: { queue: string; state: string; count: number }[] = [];
    for (const [queue, q] of Object.entries(this.queues)) {
      const counts = await q.getJobCounts('waiting', 'delayed', 'active', 'failed');
      for (const [state, count] of Object.entries(counts)) out.push({ queue, state, count });
    }
    return out;
  }

  queueFor(name: JobName): Queue {
    return this.queues[JOB_QUEUE[name]];
  }

  allQueues(): Queue[] {
    return Object.values(this.queues);
  }
}
