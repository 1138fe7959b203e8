import { recoveredOf } from './sweep.registry';

describe('recoveredOf', () => {
  const now = Date.parse('2026-12-07T12:00:00Z');
  const work = (agoMs?: number) => ({
    id: String(agoMs),
    data: { holdId: 'h' },
    dueAt: agoMs === undefined ? undefined : new Date(now - agoMs),
  });

  it('counts nothing of a periodic source', () => {
    expect(recoveredOf({ periodic: true }, [work(), work(60_000)], now)).toBe(0);
  });

  it('counts everything of a source without a grace: its query finds lost work only', () => {
    expect(recoveredOf({}, [work(), work(1)], now)).toBe(2);
  });

  it('with a grace, counts only work due for longer (and work that does not say when)', () => {
    expect(recoveredOf({ graceMs: 35_000 }, [work(0), work(34_999), work(35_001), work()], now)).toBe(2);
  });

  it('never counts work due by its own retry schedule', () => {
    const scheduled = { ...work(60_000), scheduled: true };
    expect(recoveredOf({}, [scheduled, work(1)], now)).toBe(1);
    expect(recoveredOf({ graceMs: 35_000 }, [scheduled, work(40_000)], now)).toBe(1);
  });
});
