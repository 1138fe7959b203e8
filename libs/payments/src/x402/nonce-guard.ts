import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { REDIS } from '@app/queues';
import { VerifiedPayment } from './x402.types';

/** A payment authorization already used (reserved, settled, or claimed by a request in flight): 409. */
export function paymentReplayed(): AppException {
  return new AppException('PAYMENT_REPLAYED', 'This payment authorization has already been used', { reason: 'duplicate_settlement' });
}

/**
 * A fast, shared first claim on an authorization's nonce (Redis SET NX until the authorization
 * expires), taken before paid work starts, so concurrent replays of one header are turned away
 * before the agent is called. Not the source of truth: the unique index on `payments` decides
 * at commit, and a nonce already in `payments` is refused by a read before the claim. If Redis
 * loses its keys, a concurrent replay can only cost an extra agent call, never a second charge.
 */
@Injectable()
export class NonceGuard {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  /** True if this call claimed the nonce; false if another request holds it. */
  async claim(v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce' | 'validBefore'>): Promise<boolean> {
    const expiresAtMs = Number(v.validBefore) * 1000 + 60_000;
    return (await this.redis.set(this.key(v), '1', 'PXAT', expiresAtMs, 'NX')) === 'OK';
  }

  /** Gives a claim back when the request was turned away before any paid work. */
  async release(v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): Promise<void> {
    await this.redis.del(this.key(v));
  }

  /**
   * After a request holding the claim failed: gives the claim back (not awaited; Redis errors
   * ignored) unless the failure was that the authorization is used, so the client may present
   * the same header again.
   */
  giveBackAfter(err: unknown, v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): void {
    if (err instanceof AppException && err.code === 'PAYMENT_REPLAYED') return;
    void this.release(v).catch(() => undefined);
  }

  private key(v: Pick<VerifiedPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): string {
    return `${this.config.queuePrefix}:nonce:${v.chainId}:${v.asset.toLowerCase()}:${v.payer.toLowerCase()}:${v.nonce.toLowerCase()}`;
  }
}
