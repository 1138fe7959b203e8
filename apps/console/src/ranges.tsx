import { useSearchParams } from 'react-router-dom';

/** The time ranges a page's charts offer (`?range=` keeps the choice in the URL). */
export const RANGES = {
  '24h': { label: '24 hours', bucket: 'hour', days: 1 },
  '7d': { label: '7 days', bucket: 'hour', days: 7 },
  '30d': { label: '30 days', bucket: 'day', days: 30 },
  '90d': { label: '90 days', bucket: 'day', days: 90 },
} as const;
export type RangeKey = keyof typeof RANGES;

const BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;

/**
 * The chosen range and the series query for it: `from` rounded down to its bucket, so the query
 * (and its cache key) stays the same until a new bucket begins.
 */
export function useRange(): { key: RangeKey; bucket: 'hour' | 'day'; from: string; setRange: (k: RangeKey) => void } {
  const [params, setParams] = useSearchParams();
  const asked = params.get('range');
  const key: RangeKey = asked && Object.hasOwn(RANGES, asked) ? (asked as RangeKey) : '24h';
  const { bucket, days } = RANGES[key];
  const size = BUCKET_MS[bucket];
  const from = new Date(Math.floor((Date.now() - days * 86_400_000) / size) * size + size).toISOString();
  const setRange = (k: RangeKey) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('range', k);
        return next;
      },
      { replace: true },
    );
  return { key, bucket, from, setRange };
}

/** The range buttons; the chosen one is pressed. */
export function RangePicker({ range }: { range: ReturnType<typeof useRange> }) {
  return (
    <div className="ranges" role="group" aria-label="Time range">
      {(Object.keys(RANGES) as RangeKey[]).map((k) => (
        <button key={k} type="button" aria-pressed={range.key === k} onClick={() => range.setRange(k)}>
          {RANGES[k].label}
        </button>
      ))}
    </div>
  );
}
