import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { SeriesRepository } from '../../series/series.repository';

/** At most this many batches per run, so one run stays bounded while a large backlog drains over several. */
const MAX_BATCHES = 50;

/**
 * One roll-up of the series (the worker's SeriesRollup, every SERIES_INTERVAL_MS): `series_ingest`
 * again while a source filled its batch (SERIES_BATCH rows), up to MAX_BATCHES. Several workers
 * may run it at once: each source's cursor is taken with SKIP LOCKED, so a row is added once.
 */
@Injectable()
export class RollUpSeries {
  constructor(
    private readonly repo: SeriesRepository,
    private readonly config: AppConfig,
  ) {}

  async execute(): Promise<{ executions: number; transactions: number; upto: Date }> {
    const total = { executions: 0, transactions: 0, upto: new Date(0) };
    for (let i = 0; i < MAX_BATCHES; i++) {
      const r = await this.repo.ingest(this.config.seriesLagMs, this.config.seriesBatch);
      total.executions += r.executions;
      total.transactions += r.transactions;
      total.upto = r.upto;
      if (r.executions < this.config.seriesBatch && r.transactions < this.config.seriesBatch) break;
    }
    return total;
  }
}
