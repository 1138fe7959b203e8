/**
 * JSON with object keys sorted, so equal inputs hash equally (idempotency fingerprints,
 * uniqueItems). Output is byte-identical to the earlier map/join version (fingerprints stored
 * before keep matching); loops and concatenation allocate less.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${s}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++)
    s += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalJson(o[keys[i]])}`;
  return `${s}}`;
}
