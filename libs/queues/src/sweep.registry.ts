import { Injectable } from '@nestjs/common';
import { JobName, JobPayloads } from './jobs';

/** One piece of due work: the id it is known by (for the job id) and its job's payload. */
export interface DueWork<N extends JobName = JobName> {
  id: string;
  data: JobPayloads[N];
  /** When it became due, for a source with a `graceMs`: only work due for longer counts as recovered. */
  dueAt?: Date;
  /** Due by its own retry schedule, which the sweeper drives (a failed settlement's next attempt): never counted as recovered. */
  scheduled?: boolean;
}

/** How the sweeper treats a source. */
export interface SweepOptions {
  /** Answers work every tick by design (prunes, maturing spend): never counted as recovered. */
  periodic?: boolean;
  /**
   * How late the work's own job normally is (its batching, its delay, its queue wait): work whose
   * `dueAt` is older than this is counted as recovered (its job was lost), younger work is only
   * enqueued. Without it every piece found is counted: the source's query finds lost work only.
   */
  graceMs?: number;
  /** Swept this often (its own timer) when shorter than MAINTENANCE_INTERVAL_MS: leases a dead process left. */
  everyMs?: number;
}

export interface SweepSource<N extends JobName = JobName> extends SweepOptions {
  job: N;
  due: () => Promise<DueWork<N>[]>;
}

/**
 * How long a job may wait in its queue before the sweeper counts its work as recovered: the
 * AgoraQueueWait alert's threshold (a queue this far behind is that alert's business, not a lost job).
 */
export const JOB_WAIT_GRACE_MS = 30_000;

/**
 * Where each domain says what due work Postgres holds (Postgres is the source of truth; BullMQ
 * only wakes workers). The worker's sweeper enqueues what every source answers, so a domain adds
 * its recovery by registering a source, not by editing the sweeper.
 */
@Injectable()
export class SweepRegistry {
  private readonly sources: SweepSource[] = [];
  private readonly lostLineHooks: (() => Promise<unknown>)[] = [];

  register<N extends JobName>(job: N, due: () => Promise<DueWork<N>[]>, options: SweepOptions = {}): void {
    this.sources.push({ ...options, job, due } as unknown as SweepSource);
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

/** The work of `due` a sweep at `nowMs` counts as recovered (its job was lost, or is later than its grace). */
export function recoveredOf(source: SweepOptions, due: readonly DueWork[], nowMs: number): number {
  if (source.periodic) return 0;
  const lost = due.filter((w) => !w.scheduled);
  if (source.graceMs === undefined) return lost.length;
  const before = nowMs - source.graceMs;
  return lost.filter((w) => !w.dueAt || w.dueAt.getTime() < before).length;
}
