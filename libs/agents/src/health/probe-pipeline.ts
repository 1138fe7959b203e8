import { ProbeLimiter } from './probe-limiter';

export interface ProbePipelineOptions<T, R> {
  /** Probes in flight at most (all hosts). */
  concurrency: number;
  /** Probes in flight at most to one host. */
  perHost: number;
  /** Claims up to `limit` due items (moving their schedule on); [] when none is due. */
  claim: (limit: number) => Promise<T[]>;
  /** The item's host (the per-host cap's key), or null when it has none (probed without a slot). */
  hostOf: (item: T) => string | null;
  /** One probe; bounded in time by the caller (its timeout); never rejects. */
  probe: (item: T) => Promise<R>;
  /** Items whose host already has a full backlog: given back to be claimed again later. */
  defer: (items: T[]) => Promise<void>;
  /** Records a batch of results (one transaction); a failure is counted, and the round goes on. */
  record: (results: R[]) => Promise<void>;
  /** Results per record at most, and the longest a result waits for its batch to fill. */
  recordBatch: number;
  recordDelayMs: number;
}

export interface PipelineStats {
  probed: number;
  deferred: number;
  unrecorded: number;
}

/**
 * A probe round without batch barriers: items are claimed while fewer than 2 x `concurrency` are
 * claimed and unfinished, each probe starts as soon as a slot (and its host's slot) is free, and
 * results are recorded in batches as they come (a slow probe holds back nothing but its own slot).
 * A host with `4 x perHost` items already waiting gets no more this round: they are deferred, so one
 * crowded host cannot fill the window and stall the others. Ends when nothing is due and all is recorded.
 */
export async function runProbePipeline<T, R>(o: ProbePipelineOptions<T, R>): Promise<PipelineStats> {
  const stats: PipelineStats = { probed: 0, deferred: 0, unrecorded: 0 };
  const limiter = new ProbeLimiter(o.concurrency, o.perHost);
  const window = o.concurrency * 2;
  const backlog = o.perHost * 4;
  const queued = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  const recorder = new BatchRecorder(o.record, o.recordBatch, o.recordDelayMs, stats);
  for (;;) {
    while (inFlight.size > window / 2) await Promise.race(inFlight);
    await recorder.backpressure(window);
    const claimed = await o.claim(window - inFlight.size);
    if (claimed.length === 0) break;
    const deferred: T[] = [];
    for (const item of claimed) {
      const host = o.hostOf(item);
      if (host !== null && (queued.get(host) ?? 0) >= backlog) {
        deferred.push(item);
        continue;
      }
      if (host !== null) queued.set(host, (queued.get(host) ?? 0) + 1);
      const run = host === null ? o.probe(item) : limiter.run(host, () => o.probe(item));
      const p = run
        .then((r) => recorder.add(r))
        .finally(() => {
          inFlight.delete(p);
          if (host === null) return;
          const n = queued.get(host)! - 1;
          if (n === 0) queued.delete(host);
          else queued.set(host, n);
        });
      inFlight.add(p);
      stats.probed++;
    }
    if (deferred.length > 0) {
      stats.deferred += deferred.length;
      await o.defer(deferred);
    }
  }
  await Promise.all(inFlight);
  await recorder.close();
  return stats;
}

/** Collects results and records them in batches, one record at a time, in the background. */
class BatchRecorder<R> {
  private buffer: R[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly record: (results: R[]) => Promise<void>,
    private readonly size: number,
    private readonly delayMs: number,
    private readonly stats: PipelineStats,
  ) {}

  add(result: R): void {
    this.buffer.push(result);
    this.pending++;
    if (this.buffer.length >= this.size) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Waits while more than `max` results are not yet recorded (the database is slower than the probes). */
  async backpressure(max: number): Promise<void> {
    while (this.pending > max) {
      this.flush();
      await this.flushing;
    }
  }

  async close(): Promise<void> {
    this.flush();
    await this.flushing;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(() =>
      this.record(batch).then(
        () => void (this.pending -= batch.length),
        () => void ((this.pending -= batch.length), (this.stats.unrecorded += batch.length)),
      ),
    );
  }
}
