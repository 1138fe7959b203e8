import { inSpan, linkFrom, SpanKind } from '@app/tracing';
import { Injectable, Optional } from '@nestjs/common';
import { Metrics } from '@app/metrics';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { JOB_NAMES, JOB_QUEUE, JobName, JobOf, QueueName, TRACE_FIELD } from '@app/queues';

/** The BullMQ job as the worker took it, and its lock token: what a handler needs to delay its own job (`FairShare`). */
export interface JobRun {
  job?: Job;
  token?: string;
}

/** What a handler answers when its job waits its turn: the job has moved itself to the delayed set. */
export const JOB_DEFERRED = Symbol('job deferred');

export type JobHandler<N extends JobName> = (job: JobOf<N>, run: JobRun) => Promise<unknown>;

/** The handlers of one processor: each is recorded on the queue that processor consumes. */
export interface QueueHandlers {
  register<N extends JobName>(name: N, handler: JobHandler<N>): void;
}

/** What dispatch reads of a BullMQ job: its name and data, when it was added, delayed and taken, and how often taken and failed. */
type ArrivedJob = {
  name: string;
  data: unknown;
  timestamp?: number;
  delay?: number;
  processedOn?: number;
  attemptsStarted?: number;
  attemptsMade?: number;
};

interface Registration {
  queue: QueueName;
  handler: JobHandler<JobName>;
}

/**
 * Job name -> the one domain call that handles it, and the queue of the processor that
 * registered it. `assertComplete` runs at boot: a job with no handler, with two, or with a
 * handler registered by the processor of a queue that does not carry it (`JOB_QUEUE`) stops the
 * worker before it takes any work. `dispatch` refuses a job that arrives on another queue than
 * the one that carries it. A handler that answers JOB_DEFERRED has delayed its own job (it waits
 * its agent's or host's turn): dispatch then throws BullMQ's DelayedError, so the job is neither
 * completed nor failed and spends no attempt.
 */
@Injectable()
export class JobHandlerRegistry {
  private readonly handlers = new Map<JobName, Registration>();
  private readonly duplicates: JobName[] = [];

  constructor(@Optional() private readonly metrics?: Metrics) {}

  register<N extends JobName>(queue: QueueName, name: N, handler: JobHandler<N>): void {
    if (this.handlers.has(name)) this.duplicates.push(name);
    this.handlers.set(name, { queue, handler: handler as unknown as JobHandler<JobName> });
  }

  /** The registrar of the processor of `queue` (pass the queue of its @Processor). */
  forQueue(queue: QueueName): QueueHandlers {
    return { register: (name, handler) => this.register(queue, name, handler) };
  }

  assertComplete(): void {
    const missing = JOB_NAMES.filter((n) => !this.handlers.has(n));
    const unknown = [...this.handlers.keys()].filter((n) => !JOB_NAMES.includes(n));
    const misplaced = [...this.handlers]
      .filter(([name, { queue }]) => JOB_NAMES.includes(name) && queue !== JOB_QUEUE[name])
      .map(([name, { queue }]) => `${name} registered on ${queue}, carried by ${JOB_QUEUE[name]}`);
    if (missing.length || this.duplicates.length || unknown.length || misplaced.length) {
      throw new Error(
        `Job handlers are incomplete: missing [${missing.join(', ')}], duplicated [${this.duplicates.join(', ')}], unknown [${unknown.join(', ')}], on the wrong queue [${misplaced.join('; ')}]`,
      );
    }
  }

  /** Runs the handler of a job that arrived on `queue` (`token`: the worker's lock on it). */
  async dispatch(queue: string, job: ArrivedJob, token?: string): Promise<unknown> {
    const registration = this.handlers.get(job.name as JobName);
    if (!registration) throw new Error(`No handler for job ${job.name}`);
    const carrier = JOB_QUEUE[job.name as JobName];
    if (queue !== carrier || queue !== registration.queue) {
      // Retrying cannot move the job to another queue: fail it now rather than after every attempt.
      throw new UnrecoverableError(
        `Job ${job.name} arrived on queue ${queue}; it is carried by ${carrier} and handled on ${registration.queue}`,
      );
    }
    const links = linkFrom(
      (job.data as Record<string, unknown> | null)?.[TRACE_FIELD] as Record<string, string> | undefined,
    );
    const run = { job: job instanceof Job ? job : undefined, token };
    const result = await inSpan(
      `agora.job ${job.name}`,
      { 'agora.queue': queue, 'agora.job': job.name },
      () => this.run(registration, queue, job, run),
      {
        links,
        kind: SpanKind.CONSUMER,
      },
    );
    if (result === JOB_DEFERRED) throw new DelayedError();
    return result;
  }

  private async run(registration: Registration, queue: string, job: ArrivedJob, run: JobRun): Promise<unknown> {
    if (!this.metrics) return registration.handler(job as JobOf, run);
    // Waited: from when the job was due (added, plus its delay) to when a worker took it. Not for a
    // job back from waiting its turn (taken before without failing): that wait was its agent's or host's line.
    const firstTake = (job.attemptsStarted ?? 1) - (job.attemptsMade ?? 0) <= 1;
    if (firstTake && job.timestamp && job.processedOn)
      this.metrics.jobWait.observe({ queue }, Math.max(0, job.processedOn - job.timestamp - (job.delay ?? 0)) / 1000);
    const seconds = Metrics.timer();
    try {
      const result = await registration.handler(job as JobOf, run);
      this.metrics.jobs.observe(
        { queue, job: job.name, outcome: result === JOB_DEFERRED ? 'delayed' : 'completed' },
        seconds(),
      );
      return result;
    } catch (err) {
      this.metrics.jobs.observe({ queue, job: job.name, outcome: 'failed' }, seconds());
      throw err;
    }
  }
}
