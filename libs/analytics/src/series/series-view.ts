/** The cursor's `complete_to` as the API gives it: null while nothing was rolled up (-infinity). */
export function completeTo(value: Date | number | string | null): string | null {
  const t = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  return t === null || !Number.isFinite(t) ? null : new Date(t).toISOString();
}
