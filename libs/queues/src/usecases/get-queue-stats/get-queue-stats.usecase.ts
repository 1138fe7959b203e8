import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { Clock } from '@app/common';
import { JobProducer } from '../../job.producer';

/** One queue's jobs by state, and how long its oldest waiting job has waited. */
export interface QueueStats {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Completed jobs BullMQ still keeps (it removes them after an hour or past 1,000). */
  completed: number;
  /** Since the oldest job waiting for a worker was enqueued, in ms (null: none waits). */
  oldestWaitingAgeMs: number | null;
}

/**
 * `GET /admin/queues`: each BullMQ queue of the app, its counts (one script per queue) and the
 * age of its oldest waiting job (one range read). Waiting includes prioritized jobs.
 */
@Injectable()
export class GetQueueStats {
  constructor(
    private readonly producer: JobProducer,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<QueueStats[]> {
    return Promise.all(
      this.producer.allQueues().map(async (q) => {
        const c = await q.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
        // asc: each state's oldest end (BullMQ answers newest first by default); the older of the two.
        const ends = await q.getJobs(['waiting', 'prioritized'], 0, 0, true);
        // Waiting since it became due: created, its delay over (a promoted job keeps its creation
        // time), or its last attempt (a retry): not the days a delayed job spent before it was due.
        const due = (j: Job) => Math.max(j.timestamp + (j.opts?.delay ?? 0), j.processedOn ?? 0);
        const oldest = ends.filter(Boolean).sort((a, b) => due(a) - due(b))[0];
        return {
          name: q.name,
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
          completed: c.completed ?? 0,
          oldestWaitingAgeMs: oldest ? Math.max(0, this.clock.wallMs() - due(oldest)) : null,
        };
      }),
    );
  }
}
