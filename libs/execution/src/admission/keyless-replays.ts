import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import type { PaymentAdmission } from '@app/payments';
import { admissionKeyPrefix, REDIS, RedisClient } from '@app/queues';
import { ExecutionEntity } from '../entities/execution.entity';
import { ExecuteCommand } from '../execution.types';
import { ExecutionsRepository } from '../executions.repository';
import { IdempotencyKeysRepository } from '../idempotency-keys.repository';
import { presentsOriginalPayment } from '../execution-rows';
import { fingerprintOf } from '../usecases/paid/admit-execution/admission-rules';

/**
 * How long a keyless retry can be answered as the execution its authorization paid for: the idempotency
 * keys' life (a keyed execution's key row stands that long, so a keyed run is never taken for a keyless
 * one), less a minute for the clocks of the api and Postgres. A retry after a lost answer comes in seconds.
 */
const REPLAY_WINDOW_MS = 24 * 3_600_000 - 60_000;
/** After this many requests with the authorization's header and another input, it replays nothing more. */
export const MAX_KEYLESS_MISSES = 3;
/** The count of those requests lives this long after the last (longer than the window it guards). */
const MISSES_TTL_MS = 24 * 3_600_000;
/** One more request with another input: its count, kept MISSES_TTL_MS after the last. */
const MISS = `local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return n`;

/**
 * Issue 53: a keyless retry of a used authorization (its first answer lost, or unconfirmed) is answered
 * as the execution it paid for, when it is the same request: the very header bytes that paid it (the
 * status read's rule, resolutions §4), the same agent, capability and input, within REPLAY_WINDOW_MS, and
 * not an execution started with a key (replayed by its key) nor a chain's. A header can be rebuilt from
 * public calldata, so input guessed against it is counted: after MAX_KEYLESS_MISSES other inputs the
 * authorization replays nothing (PAYMENT_REPLAYED), and when Redis cannot count, nothing is replayed.
 */
@Injectable()
export class KeylessReplays {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly keys: IdempotencyKeysRepository,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The execution this request's used authorization paid for, if it may answer it; null: PAYMENT_REPLAYED. */
  async paidBy(payment: Pick<PaymentAdmission, 'usedPaymentId'>, cmd: ExecuteCommand): Promise<ExecutionEntity | null> {
    const paymentId = await payment.usedPaymentId();
    const prior = paymentId ? await this.repo.findByPayment(paymentId) : null;
    if (!paymentId || !prior || prior.chainId !== null || prior.input === null) return null;
    if (prior.status !== 'pending' && prior.status !== 'completed') return null;
    if (!presentsOriginalPayment(prior, cmd.payment)) return null;
    // created_at is Postgres's clock: compared with the wall clock.
    if (prior.createdAt.getTime() <= this.clock.wallMs() - REPLAY_WINDOW_MS) return null;
    if (await this.keys.keyed(prior.id)) return null;
    const key = `${admissionKeyPrefix(this.config)}:keyless-miss:${paymentId}`;
    try {
      if (fingerprintOf({ ...prior, input: prior.input }) !== fingerprintOf(cmd)) {
        await this.redis.eval(MISS, 1, key, String(MISSES_TTL_MS));
        return null;
      }
      return Number((await this.redis.get(key)) ?? 0) < MAX_KEYLESS_MISSES ? prior : null;
    } catch {
      return null; // Not counted, or the count not read: no answer that could name the input.
    }
  }
}
