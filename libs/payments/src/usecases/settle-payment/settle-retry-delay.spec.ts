import { settleRetryDelayMs } from './settle-payment.usecase';

describe('settleRetryDelayMs', () => {
  it('waits 30 s, 2 min, 8 min, 32 min, then an hour at most', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(settleRetryDelayMs)).toEqual([
      30_000, 120_000, 480_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('an attempt count below 1 waits as the first retry does', () => {
    expect(settleRetryDelayMs(0)).toBe(30_000);
    expect(settleRetryDelayMs(-3)).toBe(30_000);
  });

  it('never shrinks as attempts grow', () => {
    const delays = Array.from({ length: 40 }, (_, i) => settleRetryDelayMs(i + 1));
    expect(delays.every((d, i) => i === 0 || d >= delays[i - 1])).toBe(true);
  });
});
