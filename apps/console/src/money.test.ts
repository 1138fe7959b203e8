import { describe, expect, it } from 'vitest';
import { apiMicros, formatMicros, parseTyped, plotUsdc, shortUsdc } from './money';

describe('console money', () => {
  it('reads the API amounts, a debt too, as micro-USDC', () => {
    expect(apiMicros('4.750000')).toBe(4_750_000n);
    expect(apiMicros('-0.500000')).toBe(-500_000n);
    expect(apiMicros('9007199254.740993')).toBe(9_007_199_254_740_993n);
    expect(() => apiMicros('1e3')).toThrow(RangeError);
  });

  it('parses what a person typed exactly, or says what is wrong', () => {
    expect(parseTyped(' 0.1 ')).toEqual({ micros: 100_000n });
    expect(parseTyped('0.000001')).toEqual({ micros: 1n });
    expect(parseTyped('1.0000000')).toEqual({ error: 'USDC has at most 6 decimals' });
    expect(parseTyped('- 1')).toEqual({ error: 'The amount must be positive' });
    expect(parseTyped('１')).toEqual({ error: 'Enter an amount in USDC, e.g. 2.50' });
  });

  it('writes amounts with six decimals, or at least two, and plots them as USDC', () => {
    expect(formatMicros(-5n)).toBe('-0.000005');
    expect([1_900_000n, 1_899_999n, 1_890_100n, 0n, -100_000n].map(shortUsdc)).toEqual([
      '1.90',
      '1.899999',
      '1.8901',
      '0.00',
      '-0.10',
    ]);
    expect(plotUsdc(4_750_000n)).toBe(4.75);
  });
});
