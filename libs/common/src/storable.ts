/**
 * Text Postgres cannot store: NUL (refused in text and in jsonb strings) and unpaired UTF-16
 * surrogates (refused by jsonb, and not valid Unicode). Whatever comes from outside (a request
 * body, an agent's reply) is checked before it is written, so a write never fails on it.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** The text with every unstorable character replaced by U+FFFD (for messages we write ourselves). */
export function storableText(s: string): string {
  return UNSTORABLE.test(s) ? s.replace(UNSTORABLE_ALL, '\ufffd') : s;
}

/** The path (`/a/0/b`) of the first string or key in a JSON value that cannot be stored, or null. */
export function unstorablePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '/' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorablePath(value[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (UNSTORABLE.test(k)) return `${path}/${storableText(k)}`;
      const found = unstorablePath(v, `${path}/${k}`);
      if (found !== null) return found;
    }
  }
  return null;
}
