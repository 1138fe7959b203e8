import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { jobId, JobProducer } from '@app/queues';

/** Holds are released by one delayed job per bucket of this length (a hold is released at most this late). */
export const RELEASE_BUCKET_MS = 5_000;

/**
 * After a charge commits: makes sure a delayed `escrow.release-due` job runs at the end of the
 * hold's RELEASE_BUCKET_MS bucket. One job per bucket (deterministic id across processes, and
 * remembered here so a busy process does not ask Redis again for every charge), not one per hold;
 * the sweeper covers a lost job.
 */
@Injectable()
export class HoldReleaseSchedule {
  private readonly scheduledBuckets = new Set<number>();

  constructor(
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
  ) {}

  async schedule(hold: { id: string; releaseAt: Date; status: string }): Promise<void> {
    if (hold.status !== 'held') return;
    const now = this.clock.nowMs();
    const bucket = Math.ceil(Math.max(hold.releaseAt.getTime(), now + 1) / RELEASE_BUCKET_MS);
    if (this.scheduledBuckets.has(bucket)) return;
    if (this.scheduledBuckets.size >= 10_000) {
      const current = Math.floor(now / RELEASE_BUCKET_MS);
      for (const b of this.scheduledBuckets) if (b < current) this.scheduledBuckets.delete(b);
    }
    this.scheduledBuckets.add(bucket);
    const queued = await this.jobs.wake(
      'escrow.release-due',
      { bucket },
      { jobId: jobId('escrow.release-due', bucket), delay: Math.max(0, bucket * RELEASE_BUCKET_MS - now) },
    );
    if (!queued) this.scheduledBuckets.delete(bucket);
  }
}
