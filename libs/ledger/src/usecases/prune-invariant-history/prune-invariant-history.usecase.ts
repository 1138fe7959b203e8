import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { INVARIANT_HISTORY_DAYS, InvariantStatusRepository } from '../../invariant-status.repository';

/** Rows per delete; a job does at most PER_RUN of a backlog (the sweeper enqueues it every tick). */
const BATCH = 5_000;
const PER_RUN = 50_000;

/** The worker's `invariant-checks.prune`: invariant check results older than INVARIANT_HISTORY_DAYS go. */
@Injectable()
export class PruneInvariantHistory {
  constructor(
    private readonly status: InvariantStatusRepository,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ deleted: number }> {
    const cutoff = new Date(this.clock.nowMs() - INVARIANT_HISTORY_DAYS * 86_400_000);
    let deleted = 0;
    while (deleted < PER_RUN) {
      const n = await this.status.prune(cutoff, BATCH);
      deleted += n;
      if (n < BATCH) break;
    }
    return { deleted };
  }
}
