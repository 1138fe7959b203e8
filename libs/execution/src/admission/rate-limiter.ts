import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Clock, UnavailableException } from '@app/common';
import { AppConfig } from '@app/config';
import { admissionKeyPrefix, isRedisUnavailable, REDIS, RedisClient } from '@app/queues';

/** A Redis key to take (SET NX) in the same round trip as the count, until `expiresAtMs` (a payment's nonce claim). */
export interface ClaimRequest {
  key: string;
  expiresAtMs: number;
}

export interface RateLimitState {
  agentRemaining: number;
  clientRemaining: number;
  /** Seconds until a slot frees, when limited. */
  retryAfterS: number | null;
}

/**
 * An idempotency key's in-flight claim (InFlightRuns): taken (SET NX `value`) only with the
 * nonce claim, else only read.
 */
export interface RunClaimRequest extends ClaimRequest {
  value: string;
}

/** What became of a run claim: taken by this request, free (not taken: no nonce claim), or held by another. */
export type RunClaim = 'taken' | 'free' | { heldBy: string };

export interface Admission extends RateLimitState {
  /** With a nonce claim asked for: whether this request took it (null when not asked, or not admitted). */
  claimed: boolean | null;
  /** With a run claim asked for (and admitted): what became of it; null otherwise. */
  run: RunClaim | null;
  /** The request's entry in the agent's window, when it was counted there (for giveBackAgentSlot). */
  agentSlot: string | null;
}

const WINDOW_MS = 60_000;

/**
 * Sliding window over the last minute in a Redis sorted set, shared by every api process.
 * Atomic in Lua: prune, count, and admit only when the client has room and, for a request that
 * counts against the agent (ARGV[6] = 1: its payment verified), the agent too. A request that
 * does not count against the agent only reads how much room the agent has. An admitted request
 * may also claim its payment's nonce (KEYS[3], SET NX until ARGV[7]) in the same round trip:
 * 1 taken, 0 held by another request, -1 not asked; and, with the nonce taken, its idempotency
 * key's in-flight claim (KEYS[4], SET NX ARGV[8] until ARGV[9]), else only read: 1 taken, 0 free,
 * the holder's value, -1 not asked.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local limits = { tonumber(ARGV[4]), tonumber(ARGV[5]) }
local countAgent = ARGV[6] == '1'
local counts = {}
local retry = 0
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= limits[i] and (i == 1 or countAgent) then
    local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    local wait = window
    if oldest[2] then wait = tonumber(oldest[2]) + window - now end
    if wait > retry then retry = wait end
  end
end
if retry > 0 then return { 0, limits[1] - counts[1], limits[2] - counts[2], retry, -1, -1 } end
redis.call('ZADD', KEYS[1], now, member)
redis.call('PEXPIRE', KEYS[1], window)
local agentLeft = limits[2] - counts[2]
if countAgent then
  redis.call('ZADD', KEYS[2], now, member)
  redis.call('PEXPIRE', KEYS[2], window)
  agentLeft = agentLeft - 1
end
local claimed = -1
if KEYS[3] then
  claimed = 0
  if redis.call('SET', KEYS[3], '1', 'PXAT', ARGV[7], 'NX') then claimed = 1 end
end
local run = -1
if KEYS[4] then
  if claimed == 1 and redis.call('SET', KEYS[4], ARGV[8], 'PXAT', ARGV[9], 'NX') then run = 1
  else run = redis.call('GET', KEYS[4]) or 0 end
end
return { 1, limits[1] - counts[1] - 1, agentLeft, 0, claimed, run }
`;

const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

@Injectable()
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private seq = 0;
  /** Makes window members unique across api processes. */
  private readonly instance = `${process.pid}`;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one execute request for the client (the payer once its payment verified, else the
   * caller's IP) and, when `countAgent` (only for a verified payment: unverified traffic never
   * fills an agent's window), for the target agent; if it is admitted and a nonce claim is
   * given, takes that claim (NonceGuard.claimRequest), and with it a run claim (InFlightRuns.request).
   */
  async hit(
    client: string,
    agentId: string,
    claim?: ClaimRequest,
    countAgent = true,
    run?: RunClaimRequest,
  ): Promise<Admission> {
    const now = this.clock.nowMs();
    const member = `${now}:${this.instance}:${this.seq++}`;
    const withRun = claim && run ? [run.key] : [];
    const keys = [this.clientKey(client), this.agentKey(agentId), ...(claim ? [claim.key] : []), ...withRun];
    const args = [
      keys.length,
      ...keys,
      String(now),
      String(WINDOW_MS),
      member,
      String(this.config.rateLimitClientPerMin),
      String(this.config.rateLimitAgentPerMin),
      countAgent ? '1' : '0',
      ...(claim ? [String(claim.expiresAtMs)] : []),
      ...(withRun.length ? [run!.value, String(run!.expiresAtMs)] : []),
    ] as const;
    // By hash: the script's text goes to Redis only when Redis does not know it yet.
    const [admitted, clientLeft, agentLeft, retryMs, claimed, runClaim] = (await this.redis
      .evalsha(SCRIPT_SHA, ...args)
      .catch((err: Error) => {
        if (!/NOSCRIPT/.test(err.message)) throw err;
        return this.redis.eval(SCRIPT, ...args);
      })
      .catch((err: Error) => {
        if (!isRedisUnavailable(err)) throw err;
        // Redis down or failing over: nothing is admitted, and nothing was done for the request yet.
        this.logger.warn({ err: err.message }, 'admission refused: Redis did not answer');
        throw new UnavailableException('Admission is momentarily unavailable; send the request again shortly');
      })) as [number, number, number, number, number, number | string];
    return {
      clientRemaining: Math.max(0, clientLeft),
      agentRemaining: Math.max(0, agentLeft),
      retryAfterS: admitted ? null : Math.max(1, Math.ceil(retryMs / 1000)),
      claimed: claimed === -1 ? null : claimed === 1,
      run: runClaim === -1 ? null : runClaim === 1 ? 'taken' : runClaim === 0 ? 'free' : { heldBy: String(runClaim) },
      agentSlot: admitted && countAgent ? member : null,
    };
  }

  /**
   * A request counted against the agent turned out not to run (its payment was refused after
   * all, or it was an idempotent repeat): its entry leaves the agent's window. Not awaited;
   * Redis errors ignored.
   */
  giveBackAgentSlot(agentId: string, slot: string | null): void {
    if (slot) void this.redis.zrem(this.agentKey(agentId), slot).catch(() => undefined);
  }

  private clientKey(client: string): string {
    return `${admissionKeyPrefix(this.config)}:rl:client:${client.toLowerCase()}`;
  }

  private agentKey(agentId: string): string {
    return `${admissionKeyPrefix(this.config)}:rl:agent:${agentId}`;
  }
}
