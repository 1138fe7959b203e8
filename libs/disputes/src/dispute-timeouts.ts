import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { jobId, JobProducer } from '@app/queues';
import { DisputesRepository } from './disputes.repository';

/**
 * The response deadline of a pending dispute: a delayed `dispute.timeout` job at its respondBy,
 * and the sweeper's source for the same work (a Redis that lost the job loses nothing: the row
 * is the truth).
 */
@Injectable()
export class DisputeTimeouts {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly jobs: JobProducer,
    private readonly clock: Clock,
  ) {}

  /** After commit: wakes the worker when the window closes (`round`: a later window of the same dispute, its own job). */
  async schedule(d: { id: string; respondBy: Date }, round?: string): Promise<void> {
    await this.jobs.wake(
      'dispute.timeout',
      { disputeId: d.id },
      {
        jobId: round ? jobId('dispute.timeout', d.id, round) : jobId('dispute.timeout', d.id),
        delay: Math.max(0, d.respondBy.getTime() - this.clock.nowMs()),
      },
    );
  }

  /** Pending disputes past their deadline (the sweeper enqueues them). */
  due(): Promise<string[]> {
    return this.repo.overdue(this.clock.now());
  }
}
