import { Injectable } from '@nestjs/common';
import { JOB_NAMES, JobName, JobOf } from '@app/queues';

export type JobHandler<N extends JobName> = (job: JobOf<N>) => Promise<unknown>;

/**
 * Job name -> the one domain call that handles it. `assertComplete` runs at boot: a job
 * with no handler, or with two, stops the worker before it takes any work.
 */
@Injectable()
export class JobHandlerRegistry {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly duplicates: JobName[] = [];

  register<N extends JobName>(name: N, handler: JobHandler<N>): void {
    if (this.handlers.has(name)) this.duplicates.push(name);
    this.handlers.set(name, handler as unknown as JobHandler<JobName>);
  }

  assertComplete(): void {
    const missing = JOB_NAMES.filter((n) => !this.handlers.has(n));
    const unknown = [...this.handlers.keys()].filter((n) => !JOB_NAMES.includes(n));
    if (missing.length || this.duplicates.length || unknown.length) {
      throw new Error(
        `Job handlers are incomplete: missing [${missing.join(', ')}], duplicated [${this.duplicates.join(', ')}], unknown [${unknown.join(', ')}]`,
      );
    }
  }

  async dispatch(job: { name: string; data: unknown }): Promise<unknown> {
    const handler = this.handlers.get(job.name as JobName);
    if (!handler) throw new Error(`No handler for job ${job.name}`);
    return handler(job as JobOf);
  }
}
