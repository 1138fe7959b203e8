import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { addressKey, Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { REDIS, RedisClient } from '@app/queues';
import { ERROR_ENVELOPE_SCHEMA } from './api-envelope.decorator';

/** The per-IP windows of unpaid requests, each with its own limit a minute. */
export type IpWindow = 'read' | 'write' | 'budget-check' | 'catalog';

const HEALTH = /^\/api\/v1\/health(\/|$)/;
/** Every route but those outside it (UNPREFIXED_ROUTES: the x402 discovery API, the manifests). */
const PREFIXED = /^\/api\/v1\//;
/** A capability's own paid resource (`:param` or OpenAPI `{param}` form): POST /execute's admission. */
const CAPABILITY_EXECUTE = /^\/api\/v1\/agents\/[^/]+\/capabilities\/[^/]+\/execute$/;

/**
 * The window a request counts in, from its method and its route's pattern (`/api/v1/chains/:id`;
 * OpenAPI's `{id}` form reads the same): null for health and for the paid execute (`POST
 * /execute` and each capability's own resource: its own limiter counts the payer and the agent, or, refused before its payment
 * verified, the caller's IP). Every other route is unpaid: GET/HEAD are reads, the rest writes
 * (registration, signed changes, disputes, withdrawals, retries, admin), budget-check its own.
 * `/metrics` and `/api/docs` are served outside the routes and are not counted.
 */
export function ipWindowOf(method: string, route: string): IpWindow | null {
  if (HEALTH.test(route)) return null;
  if (method === 'POST' && (route === '/api/v1/execute' || CAPABILITY_EXECUTE.test(route))) return null;
  if (method === 'POST' && route === '/api/v1/chains/budget-check') return 'budget-check';
  // The routes outside /api/v1 are a catalogue's pages, dearer than a read: their own window.
  if (!PREFIXED.test(route)) return 'catalog';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

export interface IpHit {
  limit: number;
  /** This request's number in its window (over `limit`: refused). */
  count: number;
  /** Seconds until the window ends. */
  retryAfterS: number;
}

/** A Redis that does not answer this fast is treated as down: the request is counted in this process instead... */
const REDIS_WAIT_MS = 100;
/** ...and so are the requests of the next second, without waiting for Redis again. */
const REDIS_DOWN_MS = 1_000;
/** Addresses the in-process fallback remembers in one minute before it starts over (bounds its memory). */
const LOCAL_MAX_KEYS = 100_000;

/** One round trip: count this request in the caller's current minute, expiring with it. */
const SCRIPT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/**
 * Counts unpaid requests per caller IP and clock minute, per window, shared by every api process
 * through Redis (one INCR). When Redis is down or slower than 100 ms the request is never refused
 * for it (as before: a limiter must not take the API down with it), but it is not left unlimited
 * either: it counts in this process's own windows (kept always, so a miss never starts a fresh
 * allowance), with the same limits, so N api processes let at most N times the limit through. After a miss, Redis is left alone for a second (no request
 * waits 100 ms for it meanwhile); the fallback is logged once a minute.
 */
@Injectable()
export class IpRateLimiter {
  private readonly logger = new Logger(IpRateLimiter.name);
  private readonly limits: Record<IpWindow, number>;
  private readonly prefix: string;
  private local = new Map<string, number>();
  private localMinute = -1;
  private redisDownUntil = 0;

  constructor(
    config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly clock: Clock,
  ) {
    this.prefix = config.queuePrefix;
    this.limits = {
      read: config.rateLimitReadsPerMin,
      write: config.rateLimitWritesPerMin,
      'budget-check': config.rateLimitBudgetChecksPerMin,
      catalog: config.rateLimitCatalogPerMin,
    };
  }

  async hit(window: IpWindow, ip: string, nowMs = this.clock.nowMs()): Promise<IpHit> {
    const minute = Math.floor(nowMs / 60_000);
    // IPv6 by its /64, IPv4-mapped IPv6 as the IPv4 (addressKey): one host is not 2^64 callers.
    const key = `${this.prefix}:rl:${window}:${addressKey(ip)}:${minute}`;
    // Counted here too, always: a Redis miss (a slow spell, a stalled event loop) then falls back to
    // a count that already holds this process's requests of the minute, not to a fresh allowance.
    const local = this.countLocally(key, minute);
    const shared = nowMs < this.redisDownUntil ? null : await this.countShared(key);
    if (shared === null && nowMs >= this.redisDownUntil) {
      if (this.redisDownUntil === 0 || minute !== Math.floor(this.redisDownUntil / 60_000))
        this.logger.warn('per-IP rate limits are counted in this process: Redis did not answer');
      this.redisDownUntil = nowMs + REDIS_DOWN_MS;
    }
    const count = Math.max(shared ?? 0, local);
    return {
      limit: this.limits[window],
      count,
      retryAfterS: Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000)),
    };
  }

  private async countShared(key: string): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      (this.redis.eval(SCRIPT, 1, key, 60_000) as Promise<number>).catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REDIS_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
  }

  private countLocally(key: string, minute: number): number {
    if (minute !== this.localMinute || this.local.size >= LOCAL_MAX_KEYS) {
      this.local = new Map();
      this.localMinute = minute;
    }
    const count = (this.local.get(key) ?? 0) + 1;
    this.local.set(key, count);
    return count;
  }
}

/** Every route counted per IP answers 429 in the envelope with Retry-After and the limit headers (added to the document, so no route is forgotten). */
export function documentIpRateLimits(document: OpenAPIObject): OpenAPIObject {
  const header = (description: string) => ({ description, schema: { type: 'integer' as const } });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation || operation.responses['429'] || ipWindowOf(method.toUpperCase(), path) === null) continue;
      operation.responses['429'] = {
        description:
          'RATE_LIMITED: too many unpaid requests from this address this minute (RATE_LIMIT_READS_PER_MIN, _WRITES_PER_MIN, _BUDGET_CHECKS_PER_MIN, _CATALOG_PER_MIN)',
        headers: {
          'Retry-After': header('Seconds until the window ends'),
          'X-RateLimit-Limit': header("The window's limit a minute"),
          'X-RateLimit-Remaining': header('What is left of it (0)'),
        },
        content: { 'application/json': { schema: ERROR_ENVELOPE_SCHEMA } },
      };
    }
  }
  return document;
}
