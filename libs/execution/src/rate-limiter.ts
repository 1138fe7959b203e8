import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig } from '@app/config';
import { NonceClaim } from '@app/payments';
import { REDIS } from '@app/queues';

export interface RateLimitState {
  agentRemaining: number;
  clientRemaining: number;
  /** Seconds until a slot frees, when limited. */
  retryAfterS: number | null;
}

export interface Admission extends RateLimitState {
  /** With a nonce claim asked for: whether this request took it (null when not asked, or not admitted). */
  claimed: boolean | null;
}

const WINDOW_MS = 60_000;

/**
 * Sliding window over the last minute in a Redis sorted set, shared by every api process.
 * Atomic in Lua: prune, count, and admit only when both the client and the agent have room.
 * An admitted request may also claim its payment's nonce (KEYS[3], SET NX until ARGV[6]) in
 * the same round trip: 1 taken, 0 held by another request, -1 not asked.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local limits = { tonumber(ARGV[4]), tonumber(ARGV[5]) }
local counts = {}
local retry = 0
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= limits[i] then
    local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    local wait = window
    if oldest[2] then wait = tonumber(oldest[2]) + window - now end
    if wait > retry then retry = wait end
  end
end
if retry > 0 then return { 0, limits[1] - counts[1], limits[2] - counts[2], retry, -1 } end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], window)
end
local claimed = -1
if KEYS[3] then
  claimed = 0
  if redis.call('SET', KEYS[3], '1', 'PXAT', ARGV[6], 'NX') then claimed = 1 end
end
return { 1, limits[1] - counts[1] - 1, limits[2] - counts[2] - 1, 0, claimed }
`;

const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

@Injectable()
export class RateLimiter {
  private seq = 0;
  /** Makes window members unique across api processes. */
  private readonly instance = `${process.pid}`;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts one execute request for the client and the target agent and, if it is admitted and
   * a nonce claim is given, takes that claim (NonceGuard.claimRequest).
   */
  async hit(client: string, agentId: string, claim?: NonceClaim): Promise<Admission> {
    const now = Date.now();
    const prefix = `${this.config.queuePrefix}:rl`;
    const keys = [`${prefix}:client:${client.toLowerCase()}`, `${prefix}:agent:${agentId}`, ...(claim ? [claim.key] : [])];
    const args = [
      keys.length,
      ...keys,
      String(now),
      String(WINDOW_MS),
      `${now}:${this.instance}:${this.seq++}`,
      String(this.config.rateLimitClientPerMin),
      String(this.config.rateLimitAgentPerMin),
      ...(claim ? [String(claim.expiresAtMs)] : []),
    ] as const;
    // By hash: the script's text goes to Redis only when Redis does not know it yet.
    const [admitted, clientLeft, agentLeft, retryMs, claimed] = (await this.redis.evalsha(SCRIPT_SHA, ...args).catch((err: Error) => {
      if (!/NOSCRIPT/.test(err.message)) throw err;
      return this.redis.eval(SCRIPT, ...args);
    })) as number[];
    return {
      clientRemaining: Math.max(0, clientLeft),
      agentRemaining: Math.max(0, agentLeft),
      retryAfterS: admitted ? null : Math.max(1, Math.ceil(retryMs / 1000)),
      claimed: claimed === -1 ? null : claimed === 1,
    };
  }
}

export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Agent-Remaining': String(s.agentRemaining),
    'X-RateLimit-Client-Remaining': String(s.clientRemaining),
    ...(s.retryAfterS !== null ? { 'Retry-After': String(s.retryAfterS) } : {}),
  };
}
