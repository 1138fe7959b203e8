import { Injectable } from '@nestjs/common';
import { addressKey } from '@app/common';
import { RateLimiter, RateLimitState } from '../../../admission/rate-limiter';

/**
 * An execute request turned away before admission (its body or query failed validation) is
 * counted against the caller's IP only (never against the agent it names), and answers the
 * windows every execute answer shows. Without Redis: null.
 */
@Injectable()
export class CountRejectedExecute {
  constructor(private readonly limiter: RateLimiter) {}

  async execute(clientIp: string, targetAgentId: unknown): Promise<RateLimitState | null> {
    const agentKey =
      typeof targetAgentId === 'string' && /^[0-9a-f-]{36}$/i.test(targetAgentId)
        ? targetAgentId.toLowerCase()
        : 'invalid';
    try {
      return await this.limiter.hit(`ip:${addressKey(clientIp)}`, agentKey, undefined, false);
    } catch {
      return null;
    }
  }
}
