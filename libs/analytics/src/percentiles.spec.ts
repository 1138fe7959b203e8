import { percentile } from './percentiles';

describe('percentile (nearest rank)', () => {
  const values = (xs: number[]) => {
    const m = new Map<number, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return [...m].sort((a, b) => a[0] - b[0]).map(([value, n]) => ({ value, n }));
  };

  it('is 0 without observations', () => {
    expect(percentile([], 50)).toBe(0);
  });

  it('takes the smallest value covering the share: 1..100 gives 50, 95, 99', () => {
    const h = values(Array.from({ length: 100 }, (_, i) => i + 1));
    expect([percentile(h, 50), percentile(h, 95), percentile(h, 99)]).toEqual([50, 95, 99]);
  });

  it('on 1..20: p95 is the 19th value, p99 the 20th; p50 of 4 values is the 2nd', () => {
    const h = values(Array.from({ length: 20 }, (_, i) => (i + 1) * 10));
    expect([percentile(h, 95), percentile(h, 99)]).toEqual([190, 200]);
    expect(percentile(values([7, 1, 9, 3]), 50)).toBe(3);
  });

  it('counts repeated values', () => {
    expect(percentile(values([5, 5, 5, 100]), 50)).toBe(5);
    expect(percentile(values([5, 5, 5, 100]), 95)).toBe(100);
  });
});
