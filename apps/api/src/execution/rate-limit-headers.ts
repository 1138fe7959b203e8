import type { RateLimitState } from '@app/execution';

/** Every execute answer shows the rate-limit windows (resolutions §4); a refusal for being limited adds Retry-After. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Agent-Remaining': String(s.agentRemaining),
    'X-RateLimit-Client-Remaining': String(s.clientRemaining),
    ...(s.retryAfterS !== null ? { 'Retry-After': String(s.retryAfterS) } : {}),
  };
}
