import { formatMicros, toMicros } from '@agora/sdk/money';

/**
 * Money in the console: micro-USDC as bigint, converted at the edges by the SDK's exact helpers
 * (`@agora/sdk/money`: "0.1" is exactly 100000n, never a float). The one float is a chart's y position.
 */
export { formatMicros };

/** What a person typed, as micro-USDC exactly, or why it is not an amount (a form's error). */
export type TypedAmount = { micros: bigint; error?: undefined } | { micros?: undefined; error: string };

export const ENTER_AMOUNT = 'Enter an amount in USDC, e.g. 2.50';

/** An amount typed by a person ("1.5", " 2 "): up to 12 digits, a dot and up to 6 decimals. */
export function parseTyped(text: string): TypedAmount {
  const t = text.trim();
  if (t.startsWith('-')) return { error: 'The amount must be positive' };
  if (/^\d*\.\d{7,}$/.test(t)) return { error: 'USDC has at most 6 decimals' };
  if (/^\d{13,}(\.\d*)?$/.test(t)) return { error: 'That amount is too large' };
  try {
    return { micros: toMicros(t) };
  } catch {
    return { error: ENTER_AMOUNT };
  }
}

/** An amount the API wrote ("4.750000", a debt "-0.500000") as micro-USDC. */
export function apiMicros(text: string): bigint {
  return text.startsWith('-') ? -toMicros(text.slice(1)) : toMicros(text);
}

/** Micro-USDC in USDC with at least two decimals, no trailing zeros past them: 1899999n "1.899999", 1900000n "1.90". */
export function shortUsdc(micros: bigint): string {
  return formatMicros(micros).replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * A chart's y position in USDC: the only place money becomes a float, for pixels alone (the chart's
 * table and every label are written from the bigint by formatMicros).
 */
export function plotUsdc(micros: bigint): number {
  // eslint-disable-next-line no-restricted-syntax -- a pixel position, not an amount
  return Number(micros) / 1_000_000;
}
