import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { REDIS } from '@app/queues';
import { runClaimUntil } from '../execution-factory';
import { RunClaimRequest } from './rate-limiter';

/** Deletes a run claim only while it is still this request's (a claim that expired may be another's now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Polling a held claim: from 20 ms, growing by half, at most 250 ms between looks. */
const FIRST_LOOK_MS = 20;
const MAX_LOOK_MS = 250;

/**
 * Which keyed execute requests are running now (resolutions §4: a duplicate that arrives while the
 * first runs never leads to a second run or charge). A sync request with an idempotency key writes
 * nothing before its agent answers, as one without does: the key's row is written with the run's
 * outcome, in the transaction that charges it (or records its failure). Until then the key's
 * in-flight claim stands for it, in Redis: taken with the payment's nonce claim in admission's
 * one Redis round trip (RateLimiter.hit), until the run's time limit and grace (as a written run's
 * claim lasts), and given back when the request ends. A duplicate that finds it held waits for it
 * to go, then is admitted again: it finds the key's row (and answers it), or takes the claim.
 *
 * Not the source of truth: the unique key in `idempotency_keys` decides at commit, before any money
 * moves (a run that loses there rolls back and answers the winner). If Redis loses the claim, a
 * duplicate can only cost an extra agent call, never a second charge.
 */
@Injectable()
export class InFlightRuns {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The claim a request with this payer's key asks for (its own value, so only it gives the claim back). */
  request(payer: string, key: string): RunClaimRequest {
    const hash = createHash('sha256').update(`${payer.toLowerCase()}\n${key}`).digest('hex');
    return {
      key: `${this.config.queuePrefix}:run:${hash}`,
      value: randomUUID(),
      expiresAtMs: runClaimUntil(this.clock.nowMs(), this.config).getTime(),
    };
  }

  /** The request holding the claim ended (not awaited; Redis errors ignored: the claim expires). */
  release(claim: RunClaimRequest): void {
    void this.redis.eval(RELEASE, 1, claim.key, claim.value).catch(() => undefined);
  }

  /**
   * Waits until the claim `heldBy` holds is gone (released, expired, or taken by another since),
   * at most as long as a claim can last. Answers whether it went (false: still held at the limit).
   */
  async waitGone(claim: RunClaimRequest, heldBy: string): Promise<boolean> {
    const limit = runClaimUntil(this.clock.nowMs(), this.config).getTime();
    let pause = FIRST_LOOK_MS;
    for (;;) {
      if ((await this.redis.get(claim.key)) !== heldBy) return true;
      const left = limit - this.clock.nowMs();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(MAX_LOOK_MS, Math.round(pause * 1.5));
    }
  }
}
