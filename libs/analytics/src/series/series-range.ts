import { ValidationException } from '@app/common';

export const SERIES_BUCKETS = ['hour', 'day'] as const;
export type SeriesBucket = (typeof SERIES_BUCKETS)[number];

/** At most this many points per series: a month of hours, or a year of days (the platform's). */
export const SERIES_MAX_POINTS: Record<SeriesBucket, number> = { hour: 744, day: 366 };
/** An agent's days are summed from its hours: at most 93 of them (2,232 hourly rows). */
export const AGENT_MAX_DAYS = 93;
/** Without `from`: the last day of hours, or the last 30 days. */
const DEFAULT_POINTS: Record<SeriesBucket, number> = { hour: 24, day: 30 };
const BUCKET_MS: Record<SeriesBucket, number> = { hour: 3_600_000, day: 86_400_000 };

/** A series' range: UTC bucket starts, `from` included, `to` excluded; `starts` lists every bucket in it. */
export interface SeriesRange {
  bucket: SeriesBucket;
  from: Date;
  to: Date;
  starts: Date[];
}

/**
 * The buckets a request covers: `from` rounded down to its bucket, `to` (default: now) rounded up,
 * so the current bucket is included. VALIDATION_ERROR when `from` is not before `to` or the range
 * holds more than SERIES_MAX_POINTS buckets.
 */
export function seriesRange(
  bucket: SeriesBucket,
  now: Date,
  from?: Date,
  to?: Date,
  maxPoints = SERIES_MAX_POINTS[bucket],
): SeriesRange {
  for (const [field, d] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (d && !Number.isFinite(d.getTime()))
      throw new ValidationException([
        { field, messages: [`${field} must be a date and time, e.g. 2026-11-28T10:00:00Z`] },
      ]);
  const size = BUCKET_MS[bucket];
  const end = Math.ceil(((to ?? now).getTime() + (to ? 0 : 1)) / size) * size;
  const start = Math.floor((from?.getTime() ?? end - DEFAULT_POINTS[bucket] * size) / size) * size;
  if (start >= end) throw new ValidationException([{ field: 'from', messages: ['from must be before to'] }]);
  const points = (end - start) / size;
  if (points > maxPoints)
    throw new ValidationException([
      { field: 'from', messages: [`a series holds at most ${maxPoints} ${bucket}s; this range holds ${points}`] },
    ]);
  return {
    bucket,
    from: new Date(start),
    to: new Date(end),
    starts: Array.from({ length: points }, (_, i) => new Date(start + i * size)),
  };
}

/** Rows keyed by their bucket start, one per bucket of the range (`empty` where none). */
export function fillBuckets<R extends { at: Date }, P>(
  range: SeriesRange,
  rows: R[],
  point: (at: Date, row: R | undefined) => P,
): P[] {
  const byStart = new Map(rows.map((r) => [r.at.getTime(), r]));
  return range.starts.map((at) => point(at, byStart.get(at.getTime())));
}
