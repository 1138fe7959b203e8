/** USDC amounts: decimal strings with up to 6 places ("0.010000") and integer micro-USDC (bigint). */
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** Micro-USDC of a decimal string (never a float: "0.1" is exactly 100000). */
export function toMicros(amount: string | bigint): bigint {
  if (typeof amount === 'bigint') return amount;
  const text = amount.trim();
  const m = DECIMAL.exec(text);
  if (!m) throw new RangeError(`not a USDC amount: ${String(amount)}`);
  return BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

export function formatMicros(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}
