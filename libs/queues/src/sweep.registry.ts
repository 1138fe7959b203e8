import { Injectable } from '@nestjs/common';
import { JobName, JobPayloads } from './jobs';

/** One piece of due work: the id it is known by (for the job id) and its job's payload. */
export interface DueWork<N extends JobName = JobName> {
  id: string;
  data: JobPayloads[N];
}

export interface SweepSource<N extends JobName = JobName> {
  job: N;
  due: () => Promise<DueWork<N>[]>;
}

/**
 * Where each domain says what due work Postgres holds (Postgres is the source of truth; BullMQ
 * only wakes workers). The worker's sweeper enqueues what every source answers, so a domain adds
 * its recovery by registering a source, not by editing the sweeper.
 */
@Injectable()
export class SweepRegistry {
  private readonly sources: SweepSource[] = [];
  private readonly lostLineHooks: (() => Promise<unknown>)[] = [];

  register<N extends JobName>(job: N, due: () => Promise<DueWork<N>[]>): void {
    this.sources.push({ job, due } as unknown as SweepSource);
  }

  all(): readonly SweepSource[] {
    return this.sources;
  }

  /**
   * What makes a domain's rows waiting their turn (`FairShare`: marked in line, so the sources leave
   * them alone) due again, for when Redis has lost the lines and the delayed jobs in them.
   */
  onLinesLost(release: () => Promise<unknown>): void {
    this.lostLineHooks.push(release);
  }

  linesLost(): readonly (() => Promise<unknown>)[] {
    return this.lostLineHooks;
  }
}
