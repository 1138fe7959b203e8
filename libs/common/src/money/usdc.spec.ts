import fc from 'fast-check';
import { AppException } from '../errors/app.exception';
import { formatMicros, MAX_MICROS, Usdc } from './usdc';

describe('Usdc', () => {
  it('parses decimal strings to micro-units and formats with six decimals', () => {
    expect(Usdc.parse('1.5').micros).toBe(1_500_000n);
    expect(Usdc.parse('0.001').micros).toBe(1_000n);
    expect(Usdc.parse('0').format()).toBe('0.000000');
    expect(Usdc.parse('0.000001').format()).toBe('0.000001');
    expect(Usdc.parse('1000.10').format()).toBe('1000.100000');
    expect(formatMicros('10000')).toBe('0.010000');
    expect(Usdc.fromMicros(-5n).format()).toBe('-0.000005');
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '-1',
    '+1',
    '1e3',
    '1E-2',
    '0x10',
    '1,0',
    '.5',
    '1.',
    '01.5',
    '1.0000001',
    'NaN',
    'Infinity',
    '1_000',
    '１',
  ])('rejects %p', (text) => {
    expect(Usdc.tryParse(text)).toBeNull();
    expect(() => Usdc.parse(text, 'price')).toThrow(AppException);
  });

  it('rejects amounts beyond what a BIGINT column can hold with room for sums', () => {
    expect(Usdc.tryParse('9000000000000')).not.toBeNull();
    expect(Usdc.tryParse('9000000000000.000001')).toBeNull();
    expect(Usdc.tryParse('99999999999999')).toBeNull();
  });

  it('round-trips parse(format(x)) = x for random amounts (100,000 in CI)', () => {
    fc.assert(
      // A predicate, not expect() calls: fast-check reports the failing amount, and 100,000 runs take a second, not 15.
      fc.property(fc.bigInt({ min: 0n, max: MAX_MICROS }), (micros) => {
        const text = Usdc.fromMicros(micros).format();
        return /^\d+\.\d{6}$/.test(text) && Usdc.parse(text).micros === micros;
      }),
      propertyParams(100_000),
    );
  });

  it('splits a fee into a half-up 5% cut and earnings that sum to the fee exactly (random fees, 100,000 in CI)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1_000_000_000_000n }), (fee) => {
        const cut = Usdc.fromMicros(fee).percentBps(500n).micros;
        const earnings = fee - cut;
        // half-up: cut = floor(fee * 5 / 100 + 1/2), computed independently
        const exact = fee * 5n;
        const expected = exact / 100n + (exact % 100n >= 50n ? 1n : 0n);
        return cut + earnings === fee && cut === expected && earnings >= 0n;
      }),
      propertyParams(100_000),
    );
  });

  it('rounds the cut half-up at the boundary', () => {
    expect(Usdc.fromMicros(10n).percentBps(500n).micros).toBe(1n); // 0.5 -> 1
    expect(Usdc.fromMicros(9n).percentBps(500n).micros).toBe(0n); // 0.45 -> 0
    expect(Usdc.fromMicros(30n).percentBps(500n).micros).toBe(2n); // 1.5 -> 2
  });

  it('never accepts a JS float', () => {
    expect(() => Usdc.fromMicros(0.1)).toThrow(RangeError);
  });
});

describe('Usdc at the edge (big.js)', () => {
  it('parses exactly: the digits of any amount with up to six decimals are its micro-units (random amounts)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 9_000_000_000_000n }),
        fc.integer({ min: 1, max: 6 }),
        fc.bigInt({ min: 0n, max: 999_999n }),
        (whole, places, frac) => {
          const digits = (frac % 10n ** BigInt(places)).toString().padStart(places, '0');
          const expected = whole * 1_000_000n + BigInt(digits.padEnd(6, '0'));
          const parsed = Usdc.tryParse(`${whole}.${digits}`);
          if (expected > MAX_MICROS) expect(parsed).toBeNull();
          else expect(parsed?.micros).toBe(expected);
        },
      ),
      propertyParams(10_000),
    );
  });

  it('rejects too many decimals, signs, exponents and huge amounts (random)', () => {
    const bad = fc.oneof(
      fc.tuple(fc.nat(), fc.stringMatching(/^\d{7,12}$/)).map(([w, f]) => `${w}.${f}`),
      fc.nat().map((n) => `-${n}`),
      fc
        .tuple(fc.nat({ max: 999 }), fc.constantFrom('e', 'E', 'e+', 'e-'), fc.nat({ max: 30 }))
        .map(([m, e, x]) => `${m}${e}${x}`),
      fc.bigInt({ min: 9_000_000_000_001n, max: 10n ** 30n }).map(String),
    );
    fc.assert(
      fc.property(bad, (text) => {
        expect(Usdc.tryParse(text)).toBeNull();
      }),
      propertyParams(10_000),
    );
  });

  it('never takes a JS number as text', () => {
    expect(Usdc.tryParse(0.1 as unknown as string)).toBeNull();
  });
});
