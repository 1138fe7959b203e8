import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AgentHealthRepository, HEALTH_HISTORY_DAYS } from '../../health/agent-health.repository';

/** Rows per delete; a job does at most PER_RUN of a backlog (the sweeper enqueues it every tick). */
const BATCH = 5_000;
const PER_RUN = 100_000;

/** The worker's `agent-health.prune`: hourly buckets older than HEALTH_HISTORY_DAYS go (bounded work per run). */
@Injectable()
export class PruneHealthHistory {
  constructor(
    private readonly health: AgentHealthRepository,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ deleted: number }> {
    const cutoff = new Date(this.clock.nowMs() - HEALTH_HISTORY_DAYS * 86_400_000);
    let deleted = 0;
    while (deleted < PER_RUN) {
      const n = await this.health.prune(cutoff, BATCH);
      deleted += n;
      if (n < BATCH) break;
    }
    return { deleted };
  }
}
