import { Injectable } from '@nestjs/common';
import { Clock, formatMicros } from '@app/common';
import { SeriesRepository } from '../../series/series.repository';
import { fillBuckets, SeriesBucket, seriesRange } from '../../series/series-range';
import { completeTo } from '../../series/series-view';

export interface PlatformSeriesPoint {
  at: string;
  executions: number;
  succeeded: number;
  /** micro-USDC string, six decimals: what was charged in the bucket. */
  volume: string;
  buyers: number;
  sellers: number;
}

export interface PlatformSeries {
  bucket: SeriesBucket;
  from: string;
  to: string;
  /** Every execution and charge before this time is in the points; null before the first roll-up. */
  completeTo: string | null;
  points: PlatformSeriesPoint[];
}

/**
 * `GET /analytics/platform/series`: per hour or day (UTC), the executions that ended (and how
 * many succeeded), the volume charged, and the distinct payers (buyers) and agents (sellers) of
 * those executions. Read from the worker's roll-ups (SeriesRollup): a few hundred rows at most.
 */
@Injectable()
export class GetPlatformSeries {
  constructor(
    private readonly repo: SeriesRepository,
    private readonly clock: Clock,
  ) {}

  async execute(q: { bucket: SeriesBucket; from?: Date; to?: Date }): Promise<PlatformSeries> {
    const range = seriesRange(q.bucket, this.clock.now(), q.from, q.to);
    const { rows, completeTo: complete } = await this.repo.platform(q.bucket, range.from, range.to);
    return {
      bucket: q.bucket,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      completeTo: completeTo(complete),
      points: fillBuckets(range, rows, (at, r) => ({
        at: at.toISOString(),
        executions: Number(r?.executions ?? 0),
        succeeded: Number(r?.succeeded ?? 0),
        volume: formatMicros(BigInt(r?.volume ?? 0)),
        buyers: Number(r?.buyers ?? 0),
        sellers: Number(r?.sellers ?? 0),
      })),
    };
  }
}
