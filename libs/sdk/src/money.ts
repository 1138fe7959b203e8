import Big from 'big.js';

/** USDC amounts: decimal strings with up to 6 places ("0.010000") and integer micro-USDC (bigint). */
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * big.js for the decimal text (its own constructor, strict: a JS number is refused). The text is
 * checked by DECIMAL first, since big.js itself takes signs and exponents; amounts are bigint inside.
 */
const Decimal = Big();
Decimal.strict = true;
const MICROS = new Decimal('1000000');

/** big.js's decimal toFixed (exact, never a float; the lint rule is against Number's). */
function fixed(value: Big, places: number): string {
  // eslint-disable-next-line no-restricted-syntax -- Big#toFixed
  return value.toFixed(places);
}

/** Micro-USDC of a decimal string (never a float: "0.1" is exactly 100000). */
export function toMicros(amount: string | bigint): bigint {
  if (typeof amount === 'bigint') return amount;
  const text = typeof amount === 'string' ? amount.trim() : '';
  if (!DECIMAL.test(text)) throw new RangeError(`not a USDC amount: ${String(amount)}`);
  return BigInt(fixed(new Decimal(text).times(MICROS), 0));
}

/** Six decimals always: 10000n is "0.010000". */
export function formatMicros(micros: bigint): string {
  return fixed(new Decimal(micros.toString()).div(MICROS), 6);
}
