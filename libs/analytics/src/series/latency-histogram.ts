import { percentile } from '../percentiles';

/**
 * The latency buckets of the series (migration Series, `series_hist`): bucket i (0-based) holds
 * the runs that took more than LATENCY_BOUNDS[i - 1] and at most LATENCY_BOUNDS[i] ms; the last,
 * beyond the bounds, holds those over 1,000,000 ms.
 */
export const LATENCY_BOUNDS = [
  1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10000, 15000,
  20000, 30000, 50000, 70000, 100000, 150000, 200000, 300000, 500000, 700000, 1000000,
] as const;

/** The histogram's bucket for a run of `ms` (as `series_hist` counts it). */
export function latencyBucket(ms: number): number {
  const i = LATENCY_BOUNDS.findIndex((b) => ms <= b);
  return i === -1 ? LATENCY_BOUNDS.length : i;
}

/** Element-wise sum of histograms. */
export function addHistograms(into: number[], h: number[]): number[] {
  h.forEach((n, i) => (into[i] = (into[i] ?? 0) + n));
  return into;
}

/**
 * p50, p95 and p99 of a histogram, each the upper bound of the bucket that holds it (nearest
 * rank): the true value is at most this and above the bucket below. null when it is empty.
 */
export function latencyPercentiles(h: number[]): { p50: number; p95: number; p99: number } | null {
  const buckets = h.map((n, i) => ({ value: LATENCY_BOUNDS[Math.min(i, LATENCY_BOUNDS.length - 1)], n }));
  if (!buckets.some((b) => b.n > 0)) return null;
  return { p50: percentile(buckets, 50), p95: percentile(buckets, 95), p99: percentile(buckets, 99) };
}
