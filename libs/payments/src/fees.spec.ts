import fc from 'fast-check';
import { Fees, PLATFORM_FEE, splitAgentFee, WITHDRAWAL_FEE, WITHDRAWAL_MINIMUM } from './fees';

describe('fees', () => {
  it('the platform keeps 0.001 per execution; a withdrawal costs 0.10 and takes at least 1.00', () => {
    expect([PLATFORM_FEE, WITHDRAWAL_FEE, WITHDRAWAL_MINIMUM]).toEqual([1_000n, 100_000n, 1_000_000n]);
    expect(Fees.platform).toBe(PLATFORM_FEE);
    expect(Fees.split).toBe(splitAgentFee);
  });

  it.each([
    [10_000n, 500n, 9_500n],
    [2_000_000n, 100_000n, 1_900_000n],
    [10_526_316n, 526_316n, 10_000_000n], // 526_315.8 rounds up
    [5_000n, 250n, 4_750n],
    [10n, 1n, 9n], // 0.5 rounds half up
    [9n, 0n, 9n], // 0.45 rounds down
    [1n, 0n, 1n],
    [0n, 0n, 0n],
  ])('an agent fee of %s: the cut is 5%% half up (%s), the earnings the rest (%s)', (fee, cut, earnings) => {
    expect(splitAgentFee(fee)).toEqual({ cut, earnings });
  });

  it('cut and earnings always sum to the fee, the cut within half a micro of 5%', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (fee) => {
        const { cut, earnings } = splitAgentFee(fee);
        expect(cut + earnings).toBe(fee);
        expect(cut >= 0n && earnings >= 0n).toBe(true);
        // |cut - fee/20| <= 1/2, in integers: |20 cut - fee| <= 10.
        const off = 20n * cut - fee;
        expect(off <= 10n && off >= -10n).toBe(true);
      }),
      propertyParams(10_000),
    );
  });
});
