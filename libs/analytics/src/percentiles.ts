/**
 * Nearest-rank percentile over a histogram sorted by value: the smallest value v such that at
 * least pct% of the observations are <= v (Postgres' percentile_disc). Integer arithmetic, so the
 * boundaries (e.g. exactly 95 of 100) are exact. 0 for no observations.
 */
export function percentile(histogram: { value: number; n: number }[], pct: number): number {
  const total = histogram.reduce((sum, h) => sum + h.n, 0);
  if (total === 0) return 0;
  let cumulative = 0;
  for (const h of histogram) {
    cumulative += h.n;
    if (cumulative * 100 >= pct * total) return h.value;
  }
  return histogram[histogram.length - 1].value;
}
