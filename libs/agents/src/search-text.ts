/** A LIKE pattern's literal text: `\`, `%` and `_` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Words only: what reaches to_tsvector/to_tsquery can never be query syntax. */
export function sanitizeQuery(query: string): string {
  return query
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}
