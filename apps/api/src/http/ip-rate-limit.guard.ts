import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppException } from '@app/common';
import { IpRateLimiter, IpWindow, ipWindowOf } from './ip-rate-limit';

const WHAT: Record<IpWindow, string> = {
  read: 'reads',
  write: 'unpaid requests that change something',
  'budget-check': 'budget checks',
  catalog: 'catalogue pages (the x402 discovery API, the manifests)',
};

/**
 * Every unpaid request is limited per caller IP and minute (`ipWindowOf`): public reads cost work
 * nobody pays for, and so do registrations (their schemas compile before the fee), signed
 * changes, disputes, withdrawals and budget checks (a schema validation each). A global guard, so
 * it runs before the routes' own guards (signature recovery) and pipes (validation). Over the
 * limit: RATE_LIMITED (429) with Retry-After; X-RateLimit-Limit / X-RateLimit-Remaining on every
 * counted request. Redis down: see IpRateLimiter (counted per process, never refused for it).
 */
@Injectable()
export class IpRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: IpRateLimiter) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request>();
    // The matched route's pattern, so `/API/v1/chains/budget-check/` is budget-check too.
    const route = typeof req.route?.path === 'string' ? req.route.path : req.path;
    const window = ipWindowOf(req.method, route);
    if (window === null) return true;
    const { limit, count, retryAfterS } = await this.limiter.hit(window, req.ip ?? 'unknown');
    const res = ctx.switchToHttp().getResponse<Response>();
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    if (count > limit) {
      res.setHeader('Retry-After', String(retryAfterS));
      throw new AppException(
        'RATE_LIMITED',
        `At most ${limit} ${WHAT[window]} a minute from one address; retry in ${retryAfterS} s`,
        { retryAfterS, window },
      );
    }
    return true;
  }
}
