import { Inject, Injectable } from '@nestjs/common';
import { Clock, SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { admissionKeyPrefix, REDIS, RedisClient } from '@app/queues';
import { PaymentReplayed } from './x402.errors';
import { VerifiedPayment } from './x402.types';

/** A payment authorization already used (reserved, settled, or claimed by a request in flight): 409. */
export function paymentReplayed(): PaymentReplayed {
  return new PaymentReplayed('This payment authorization has already been used', {
    reason: 'duplicate_settlement',
  });
}

/** What identifies an authorization's nonce, and when the authorization expires. */
export type NonceRef = Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'> & {
  validBefore: bigint | string;
};

/** A claim to take: SET key NX, expiring at expiresAtMs (the wall clock's, as Redis counts). */
export interface NonceClaim {
  key: string;
  expiresAtMs: number;
}

const MAX_CLAIM_MS = 86_400_000;

/**
 * A fast, shared first claim on an authorization's nonce (Redis SET NX until the authorization
 * expires), taken before paid work starts (by the rate-limit script, RateLimiter.hit, in the
 * same round trip), so concurrent replays of one header are turned away before the agent is
 * called. Not the source of truth: the unique index on `payments` decides at commit, and a nonce
 * already in `payments` is refused by a read made alongside the claim. If Redis loses its keys,
 * a concurrent replay can only cost an extra agent call, never a second charge.
 */
@Injectable()
export class NonceGuard {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfig,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  /**
   * The Redis key and expiry of a claim on this nonce (SET NX), for the script that takes it in
   * the same round trip as the rate-limit count (RateLimiter.hit). A claim lasts until a minute
   * after the authorization expires, at most a day (past that the payments read still refuses a
   * used nonce).
   */
  claimRequest(v: NonceRef): NonceClaim {
    const until = Math.min(Number(v.validBefore) * 1000 + 60_000, this.clock.nowMs() + MAX_CLAIM_MS);
    return { key: this.key(v), expiresAtMs: this.clock.wallMs(until) };
  }

  /** Gives a claim back (not awaited; Redis errors ignored): the request holding it did no paid work. */
  giveBack(v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): void {
    void this.redis.del(this.key(v)).catch(() => undefined);
  }

  /**
   * After a request holding the claim failed: gives the claim back unless the failure was that
   * the authorization is used, so the client may present the same header again.
   */
  giveBackAfter(err: unknown, v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): void {
    if (err instanceof PaymentReplayed) return;
    this.giveBack(v);
  }

  private key(v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): string {
    return `${admissionKeyPrefix(this.config)}:nonce:${v.chainId}:${v.asset.toLowerCase()}:${v.payer.toLowerCase()}:${v.nonce.toLowerCase()}`;
  }
}
