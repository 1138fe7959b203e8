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
    const m = DECIMAL.exec(text);
    if (!m) return null;
    const whole = BigInt(m[1]);
    const frac = BigInt((m[2] ?? '').padEnd(6, '0'));
    const micros = whole * MICROS_PER_USDC + frac;
    if (micros > MAX_MICROS) return null;
    return new Usdc(micros);
  }

  static parse(text: string, field = 'amount'): Usdc {
    const v = Usdc.tryParse(text);
    if (v === null) {
      throw new ValidationException([{ field, messages: [`${field} must be a decimal string with at most 6 decimals (e.g. "1.50")`] }]);
    }
    return v;
  }

  static isValid(text: unknown): boolean {
    return typeof text === 'string' && Usdc.tryParse(text) !== null;
  }

  /** Always exactly six decimals: "0.001000". */
  format(): string {
    const negative = this.micros < 0n;
    const abs = negative ? -this.micros : this.micros;
    const whole = abs / MICROS_PER_USDC;
    const frac = (abs % MICROS_PER_USDC).toString().padStart(6, '0');
    return `${negative ? '-' : ''}${whole}.${frac}`;
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
    if (this.micros < 0n || numerator < 0n || denominator <= 0n) throw new RangeError('mulDiv needs non-negative amounts and a positive denominator');
    return new Usdc((this.micros * numerator * 2n + denominator) / (2n * denominator));
  }
}

/** Formats micro-units (bigint or the string node-postgres returns for BIGINT). */
export function formatMicros(micros: bigint | string | number): string {
  return Usdc.fromMicros(micros).format();
}
