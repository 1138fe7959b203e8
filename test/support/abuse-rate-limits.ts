import { HttpResult } from './api-harness';
import { waitFor } from './processes';

/** The defaults (libs/config): the harness raises the writes limit for other tests, abuse-rate-limits.e2e-spec.ts puts it back. */
export const WRITES_PER_MIN = 60;
export const BUDGET_CHECKS_PER_MIN = 10;

export const FLOOD = 700;
/** The rate: 29 budget checks a second saturated the api. */
export const FLOOD_PER_S = 29;
export const HEAVY_AGENTS = 40; // 4.00 USDC of registration fees
export const HEAVY_CAPABILITIES = 4;

/**
 * The largest input schema an agent may register four of (125 subschemas, 16 patterns, 32 KB): it
 * costs about 30 ms to compile and weighs about 225 KiB in the validator cache, so the 160 of 40
 * agents do not fit its 32 MiB and a budget check that cycles through them compiles every time.
 */
export function heavySchema(tag: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 16; i++)
    properties[`p${i}`] = { type: 'string', pattern: `^(?:[a-z]|${tag}x${i}){1,${20 + i}}[0-9]{2,${8 + i}}$` };
  for (let i = 16; i < 124; i++) properties[`p${i}_${tag}_${'y'.repeat(245)}`] = { type: 'string', maxLength: 50 + i };
  return { type: 'object', properties, required: ['p0'] };
}

/** The same client address for every request of a test: the api trusts X-Forwarded-For from loopback (as behind a proxy). */
export const from = (ip: string, headers: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, ...headers });
export const limitedAnswer = (r: HttpResult) => ({
  status: r.status,
  code: r.body?.error?.code,
  retryAfter: Number(r.headers.get('retry-after')) >= 1 && Number(r.headers.get('retry-after')) <= 60,
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
});
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until the clock's minute has `neededS` seconds left: the limits count per clock minute. */
export const withinOneMinute = (neededS: number) =>
  waitFor(async () => Date.now() % 60_000 < 60_000 - neededS * 1000, 'room in the current minute', 65_000);
