import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { admissionKeyPrefix, REDIS, RedisClient } from '@app/queues';
import { runClaimUntil } from '../execution-rows';
import { RunClaimRequest } from './rate-limiter';

/** Deletes a run claim only while it is still this request's (a claim that expired may be another's now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** One more duplicate waiting on a claim (its count lives as long as the claim can). */
const JOIN = `local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIREAT', KEYS[1], ARGV[1]) return n`;

/** Polling a held claim: from 20 ms, growing by half, at most 250 ms between looks. */
const FIRST_LOOK_MS = 20;
const MAX_LOOK_MS = 250;
/** At most this many duplicates wait on one running request; more are told to retry later at once. */
export const MAX_WAITERS = 8;
/** A duplicate waits at most the run's time limit and this (the charge), then is told to retry later. */
const WAIT_AFTER_TIMEOUT_MS = 5_000;

/** What a running keyed request's claim says about it: for its duplicates, and for the public payment status. */
export interface InFlightRun {
  /** The request's own value: only it gives the claim back. */
  token: string;
  /** What the key is bound to (agent, capability, canonical input): a duplicate with another is a conflict. */
  fingerprint: string;
  /** The execution's id, once written. */
  requestId: string;
  payment: { network: string; chainId: number; asset: string; amount: string; nonce: string; createdAtMs: number };
}

/**
 * Which keyed execute requests are running now (resolutions §4: a duplicate that arrives while the
 * first runs never leads to a second run or charge). A sync request with an idempotency key writes
 * nothing before its agent answers, as one without does: the key's row is written with the run's
 * outcome, in the transaction that charges it (or records its failure). Until then the key's
 * in-flight claim stands for it, in Redis: taken with the payment's nonce claim in admission's
 * one Redis round trip (RateLimiter.hit), until the run's time limit and grace (as a written run's
 * claim lasts), and given back when the request ends. A duplicate that finds it held waits for it
 * to go (at most MAX_WAITERS at once, for at most the run's time limit and the charge), then is
 * admitted again: it finds the key's row (and answers it), or takes the claim.
 *
 * Not the source of truth: the unique key in `idempotency_keys` decides at commit, before any money
 * moves (a run that loses there rolls back and answers the winner). If Redis loses the claim, a
 * duplicate can only cost an extra agent call, never a second charge.
 */
@Injectable()
export class InFlightRuns {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The claim a request with this payer's key asks for, saying what it runs and how it pays. */
  request(
    payer: string,
    key: string,
    run: Pick<InFlightRun, 'fingerprint' | 'requestId'>,
    payment: InFlightRun['payment'],
  ): RunClaimRequest {
    const value: InFlightRun = { token: randomUUID(), ...run, payment };
    return {
      key: this.keyOf(payer, key),
      value: JSON.stringify(value),
      expiresAtMs: this.clock.wallMs(runClaimUntil(this.clock.nowMs(), this.config).getTime()),
    };
  }

  /** A held claim's value read back (null: not one of ours). */
  static parse(value: string): InFlightRun | null {
    try {
      const run = JSON.parse(value) as InFlightRun;
      return typeof run?.token === 'string' && typeof run.requestId === 'string' ? run : null;
    } catch {
      return null;
    }
  }

  /** The request running now with this payer's key, if any (the public payment status). */
  async current(payer: string, key: string): Promise<InFlightRun | null> {
    const value = await this.redis.get(this.keyOf(payer, key));
    return value === null ? null : InFlightRuns.parse(value);
  }

  /** The request holding the claim ended (not awaited; Redis errors ignored: the claim expires). */
  release(claim: RunClaimRequest): void {
    void this.redis.eval(RELEASE, 1, claim.key, claim.value).catch(() => undefined);
  }

  /** Seconds until the claim runs out at the latest (a Retry-After). */
  async secondsLeft(claim: RunClaimRequest): Promise<number> {
    const ms = await this.redis.pttl(claim.key);
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /**
   * Waits until the claim `heldBy` holds is gone (released, expired, or taken by another since), at
   * most the run's time limit and the charge: `gone`, or `waited` (still held). `crowded` at once
   * when MAX_WAITERS already wait on it.
   */
  async waitGone(claim: RunClaimRequest, heldBy: string): Promise<'gone' | 'waited' | 'crowded'> {
    const waiters = `${claim.key}:waiters`;
    const limit = this.clock.nowMs() + this.config.executionTimeoutMs + WAIT_AFTER_TIMEOUT_MS;
    const joined = Number(await this.redis.eval(JOIN, 1, waiters, String(claim.expiresAtMs)));
    try {
      if (joined > MAX_WAITERS) return 'crowded';
      let pause = FIRST_LOOK_MS;
      for (;;) {
        if ((await this.redis.get(claim.key)) !== heldBy) return 'gone';
        const left = limit - this.clock.nowMs();
        if (left <= 0) return 'waited';
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
        pause = Math.min(MAX_LOOK_MS, Math.round(pause * 1.5));
      }
    } finally {
      void this.redis.decr(waiters).catch(() => undefined);
    }
  }

  /** The Redis key of a payer's idempotency key's claim. */
  keyOf(payer: string, key: string): string {
    const hash = createHash('sha256').update(`${payer.toLowerCase()}\n${key}`).digest('hex');
    return `${admissionKeyPrefix(this.config)}:run:${hash}`;
  }
}
