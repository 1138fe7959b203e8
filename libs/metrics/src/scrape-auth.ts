import { timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header value is `Bearer <token>`: the check of every metrics
 * endpoint (the api's `GET /metrics`, the worker's metrics port), constant-time in the token.
 */
export function scrapeAuthorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
