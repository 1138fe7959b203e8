import Big from 'big.js';
import { ValidationException } from '../errors/app.exception';

/** Micro-units per USDC (6 decimals). */
export const MICROS_PER_USDC = 1_000_000n;

/**
 * Largest amount accepted from outside: 9,000,000,000,000 USDC in micro-units still fits a
 * Postgres BIGINT (9.22e18) with room for sums, so no input can overflow a column.
 */
export const MAX_MICROS = 9_000_000_000_000n * MICROS_PER_USDC;

const DECIMAL = /^(0|[1-9]\d{0,12})(?:\.(\d{1,6}))?$/;

/**
 * big.js for the decimal text at the edges (a copy of the constructor, so no other user's settings
 * apply): strict, so a JS number is refused outright. The text is checked by DECIMAL first (big.js
 * itself would take a sign or an exponent); inside, amounts are bigint micro-units.
 */
const Decimal = Big();
Decimal.strict = true;
const MICROS = new Decimal(MICROS_PER_USDC.toString());

/** big.js's decimal toFixed (exact, never a float; the lint rule is against Number's). */
function fixed(value: Big, places: number): string {
  // eslint-disable-next-line no-restricted-syntax -- Big#toFixed
  return value.toFixed(places);
}

/**
 * A USDC amount as integer micro-units. Never built from a JS number, so no float
 * ever touches money.
 */
export class Usdc {
  private constructor(readonly micros: bigint) {}

  static readonly ZERO = new Usdc(0n);

  static fromMicros(micros: bigint | string | number): Usdc {
    let value: bigint;
    if (typeof micros === 'number') {
      if (!Number.isSafeInteger(micros)) throw new RangeError(`micro amount ${micros} is not a safe integer`);
      value = BigInt(micros);
    } else {
      value = BigInt(micros);
    }
    return new Usdc(value);
  }

  /** Strict decimal parse: digits, optional dot, at most six decimals; no sign, exponent or spaces. */
  static tryParse(text: string): Usdc | null {
    if (typeof text !== 'string') return null;
    if (!DECIMAL.test(text)) return null;
    const micros = BigInt(fixed(new Decimal(text).times(MICROS), 0));
    if (micros > MAX_MICROS) return null;
    return new Usdc(micros);
  }

  static parse(text: string, field = 'amount'): Usdc {
    const v = Usdc.tryParse(text);
    if (v === null) {
      throw new ValidationException([
        { field, messages: [`${field} must be a decimal string with at most 6 decimals (e.g. "1.50")`] },
      ]);
    }
    return v;
  }

  static isValid(text: unknown): boolean {
    return typeof text === 'string' && Usdc.tryParse(text) !== null;
  }

  /** Always exactly six decimals: "0.001000". */
  format(): string {
    return fixed(new Decimal(this.micros.toString()).div(MICROS), 6);
  }

  toString(): string {
    return this.format();
  }

  toJSON(): string {
    return this.format();
  }

  plus(o: Usdc): Usdc {
    return new Usdc(this.micros + o.micros);
  }

  minus(o: Usdc): Usdc {
    return new Usdc(this.micros - o.micros);
  }

  cmp(o: Usdc): -1 | 0 | 1 {
    return this.micros < o.micros ? -1 : this.micros > o.micros ? 1 : 0;
  }

  lte(o: Usdc): boolean {
    return this.micros <= o.micros;
  }

  isZero(): boolean {
    return this.micros === 0n;
  }

  /** Percentage in basis points, rounded half-up (amounts here are never negative). */
  percentBps(bps: bigint): Usdc {
    return this.mulDiv(bps, 10_000n);
  }

  /** this x numerator / denominator, rounded half-up to a micro-unit (all non-negative). */
  mulDiv(numerator: bigint, denominator: bigint): Usdc {
    if (this.micros < 0n || numerator < 0n || denominator <= 0n)
      throw new RangeError('mulDiv needs non-negative amounts and a positive denominator');
    return new Usdc((this.micros * numerator * 2n + denominator) / (2n * denominator));
  }
}

/** Formats micro-units (bigint or the string node-postgres returns for BIGINT). */
export function formatMicros(micros: bigint | string | number): string {
  return Usdc.fromMicros(micros).format();
}
