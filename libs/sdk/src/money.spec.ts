import fc from 'fast-check';
import { formatMicros, toMicros } from './money';

describe('SDK money (big.js at the edge, bigint inside)', () => {
  it('converts exactly: the digits of any amount with up to six decimals are its micro-USDC', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 999_999_999_999n }),
        fc.integer({ min: 0, max: 6 }),
        fc.bigInt({ min: 0n, max: 999_999n }),
        (whole, places, frac) => {
          const digits = (frac % 10n ** BigInt(places)).toString().padStart(places, '0');
          const text = places ? `${whole}.${digits}` : `${whole}`;
          expect(toMicros(text)).toBe(whole * 1_000_000n + BigInt(digits.padEnd(6, '0') || '0'));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('formats with six decimals and round-trips (negative amounts too)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), (micros) => {
        const text = formatMicros(micros);
        expect(text).toMatch(/^-?\d+\.\d{6}$/);
        if (micros >= 0n && micros < 10n ** 18n) expect(toMicros(text)).toBe(micros);
      }),
      { numRuns: 2_000 },
    );
    expect(formatMicros(10_000n)).toBe('0.010000');
    expect(formatMicros(-5n)).toBe('-0.000005');
    expect(toMicros('0.1')).toBe(100_000n);
    expect(toMicros(' 1.5 ')).toBe(1_500_000n);
  });

  it.each([
    '',
    '1.0000001',
    '-1',
    '+1',
    '1e3',
    '1E-2',
    '1e+2',
    '0x10',
    '.5',
    '1.',
    'NaN',
    'Infinity',
    '1,5',
    '1_000',
    '１',
    '1234567890123',
    '99999999999999999999',
  ])('rejects %p', (text) => expect(() => toMicros(text)).toThrow(RangeError));

  it('rejects a JS number', () => {
    expect(() => toMicros(0.1 as unknown as string)).toThrow(RangeError);
  });
});
