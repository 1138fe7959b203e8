import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import Redis from 'ioredis';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { REDIS } from '@app/queues';

/** A Redis that does not answer this fast is treated as down: reads go on unlimited (fail open). */
const REDIS_WAIT_MS = 100;

/** One round trip: count this request in the caller's current minute, expiring with it. */
const SCRIPT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/**
 * Public reads (every GET but health) are limited per caller IP and minute, shared by every api
 * process through Redis: discovery, recommendation, stats and the other public reads cost work
 * that nobody pays for. Over the limit: RATE_LIMITED (429) with Retry-After. Headers
 * X-RateLimit-Limit / X-RateLimit-Remaining on every counted read. Redis down or slow: the read
 * is served (a limiter must not take reads down with it) and the skip is logged.
 */
@Injectable()
export class ReadRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(ReadRateLimitGuard.name);

  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request>();
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/v1/health')) return true;
    const res = ctx.switchToHttp().getResponse<Response>();
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const key = `${this.config.queuePrefix}:rl:read:${req.ip ?? 'unknown'}:${minute}`;
    let timer: NodeJS.Timeout | undefined;
    const count = await Promise.race([
      (this.redis.eval(SCRIPT, 1, key, 60_000) as Promise<number>).catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REDIS_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    if (count === null) {
      this.logger.warn({ path: req.path }, 'read rate limit skipped: Redis did not answer');
      return true;
    }
    const limit = this.config.rateLimitReadsPerMin;
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    if (count > limit) {
      const retryAfterS = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
      res.setHeader('Retry-After', String(retryAfterS));
      throw new AppException('RATE_LIMITED', `At most ${limit} reads a minute from one address; retry in ${retryAfterS} s`, { retryAfterS });
    }
    return true;
  }
}
