import { Metrics } from '@app/metrics';
import { Injectable, Logger } from '@nestjs/common';
import { AppException, Clock, FaultInjector, InjectedFault } from '@app/common';
import { AppConfig } from '@app/config';
import { HoldLease, LeaseHeartbeat } from '@app/database';
import { PaymentEntity } from '../../entities/payment.entity';
import { toSettleRequest } from '../../payment-rows';
import { DuePayment, PaymentsRepository } from '../../payments.repository';
import {
  logSettlementConfirmed,
  SettleRequest,
  SettlementAdapter,
  SettlementFailed,
  SettlementUndecided,
} from '@app/onchain';

/** How long past validBefore (our clock) an unused authorization is still watched: block timestamps may lag our clock. */
export const AUTHORIZATION_EXPIRY_MARGIN_S = 600n;

/** Details of the SETTLEMENT_FAILED thrown for an authorization that expired unused: the failure is final. */
export const EXPIRED_UNUSED = 'authorization_expired_unused';

/**
 * Details of the SETTLEMENT_FAILED thrown when the payer used the authorization's nonce for another
 * transfer (EIP-3009 nonces are per signer: a second authorization with the same nonce, relayed first):
 * nothing came to us and nothing ever can. Final, as EXPIRED_UNUSED.
 */
export const AUTHORIZATION_SPENT = 'authorization_used_elsewhere';

/** The reason of the SETTLEMENT_FAILED thrown while the outcome is not known (sent on chain, or settling elsewhere): no failure. */
export const SETTLEMENT_PENDING = 'settlement_pending';

/** Settlement retries: 30 s, 2 min, 8 min, ... capped at 1 h. */
export function settleRetryDelayMs(attempt: number): number {
  return Math.min(30_000 * 4 ** Math.max(0, attempt - 1), 3_600_000);
}

/**
 * Moving an authorization's USDC outside Postgres (evm, facilitator), recorded before anything
 * leaves: the payment is first claimed `settling` with a lease (SETTLEMENT_LEASE_MS), then the
 * adapter is called (evm stores the hash before broadcast), then `settled` or
 * `settlement_failed` (retried on a schedule). A transaction sent and not decided yet (its
 * receipt did not come within the wait) leaves the payment `settling` with its hash and a new
 * lease: its outcome is unknown, not failed. A settling payment whose lease ran out (its process
 * died, or its transaction was undecided) is taken over: the chain is asked whether the
 * authorization was used and by which transaction, and only if it was not, and no transaction
 * carrying it can still land, is it sent again. So money that moved is recorded exactly once,
 * and a settling payment is never released.
 */
@Injectable()
export class SettlePayment {
  private readonly logger = new Logger(SettlePayment.name);

  constructor(
    private readonly adapter: SettlementAdapter,
    private readonly payments: PaymentsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly faults: FaultInjector,
    private readonly metrics: Metrics,
    private readonly heartbeat: LeaseHeartbeat,
  ) {}

  /**
   * Settles a reserved or failed authorization (or takes over a settling one whose lease ran
   * out). Answers the payment `settled`; throws SETTLEMENT_FAILED when the settlement failed (the
   * row is `settlement_failed` with its next retry time), or with `reason` SETTLEMENT_PENDING when
   * its outcome is not known (sent and undecided, or still running elsewhere).
   */
  execute(paymentOrId: string | PaymentEntity): Promise<PaymentEntity> {
    // The settling lease, taken below, is renewed while this process settles: a slow receipt is never taken over.
    return this.heartbeat.holding((hold) => this.settle(paymentOrId, hold));
  }

  private async settle(paymentOrId: string | PaymentEntity, hold: HoldLease): Promise<PaymentEntity> {
    // A payment the caller just read or wrote saves a read; the claim below decides either way.
    const payment = typeof paymentOrId === 'string' ? await this.get(paymentOrId) : paymentOrId;
    const paymentId = payment.id;
    if (payment.status === 'settled') return payment;
    if (payment.status === 'released')
      throw new AppException('INVALID_STATE', 'Payment was released and cannot be settled');
    const now = this.clock.now();
    if (
      payment.status !== 'reserved' &&
      BigInt(Math.floor(now.getTime() / 1000)) >= payment.validBefore + AUTHORIZATION_EXPIRY_MARGIN_S
    ) {
      await this.expireIfUnused(payment, now);
    }
    const lease = new Date(now.getTime() + this.config.settlementLeaseMs);
    const claimed = await this.payments.claimSettling(paymentId, lease, now);
    if (!claimed) return this.elsewhere(paymentId);
    hold(lease, (from, to) => this.payments.renewSettling(paymentId, from, to));
    const req = toSettleRequest(payment);
    let txHash: string;
    const seconds = Metrics.timer();
    const observe = (outcome: 'settled' | 'failed' | 'pending') =>
      this.metrics.settlementDuration.observe({ mode: this.config.settlementMode, outcome }, seconds());
    try {
      // An earlier attempt may have moved the money and died before recording it: ask the chain.
      const earlier =
        payment.status !== 'reserved' || payment.txHash !== null ? await this.adapter.settlementOf(req) : null;
      txHash = earlier ?? (await this.adapter.settle(req)).txHash;
    } catch (err) {
      // The authorization may have been used by another transaction than ours (a retry, a relay by someone else): record that one.
      const moved = await this.adapter.settlementOf(req).catch(() => undefined); // undefined: not known now
      if (moved === null && !(err instanceof SettlementUndecided) && (await this.usedElsewhere(req))) {
        observe('failed');
        this.adapter.releaseHold(req);
        return this.spent(paymentId, err);
      }
      if (!moved && err instanceof SettlementUndecided) {
        observe('pending');
        return this.undecided(paymentId, err);
      }
      if (!moved) {
        observe('failed');
        // Nothing moved: the payer's balance is its own again (PayerHolds).
        this.adapter.releaseHold(req);
        return this.failed(paymentId, claimed.attempts, err);
      }
      txHash = moved;
    }
    observe('settled');
    // The balance on chain says it now: the preflight's hold of it goes (PayerHolds).
    this.adapter.releaseHold(req);
    // Tests: the process "dies" here, after the money moved and before it is recorded.
    await this.faults.reach('settlement.before-record');
    // The money moved: recorded even if a takeover that found nothing yet marked it failed meanwhile.
    const settledAt = this.clock.now();
    if (await this.payments.recordSettled(paymentId, txHash, settledAt)) {
      Object.assign(payment, {
        status: 'settled',
        txHash,
        settledAt,
        settleAttempts: claimed.attempts,
        nextAttemptAt: null,
        lastError: null,
      });
      logSettlementConfirmed(payment);
      return payment;
    }
    // Recorded by another process meanwhile; anything else is not a settlement to charge for.
    return this.elsewhere(paymentId);
  }

  /**
   * The payment is not this call's to settle (another process holds it, or recorded it): answered
   * if settled; while `settling` its outcome is not known here (SETTLEMENT_PENDING, with the hash of
   * the transaction carrying it once one was sent).
   */
  private async elsewhere(paymentId: string): Promise<PaymentEntity> {
    const current = await this.get(paymentId);
    if (current.status === 'settled') return current;
    const pending = current.status === 'settling';
    throw new SettlementFailed(
      'The payment is being settled; it will be recorded when it is',
      pending && current.txHash ? { paymentId, txHash: current.txHash } : { paymentId },
      pending ? SETTLEMENT_PENDING : undefined,
    );
  }

  /**
   * A transaction carrying the authorization was sent and the chain has not decided it: the payment
   * stays `settling` with its hash, looked at again after a lease (the takeover asks the chain first,
   * and sends nothing while that transaction can land). Throws SETTLEMENT_PENDING.
   */
  private async undecided(paymentId: string, err: SettlementUndecided): Promise<never> {
    const next = new Date(this.clock.nowMs() + this.config.settlementLeaseMs);
    await this.payments.markUndecided(paymentId, next, err.message.slice(0, 500));
    this.logger.warn({ paymentId, txHash: err.txHash }, 'settlement sent and not confirmed yet; left to the sweeper');
    throw new SettlementFailed(
      'The payment was sent on chain and is not confirmed yet; it will be recorded when it is',
      { paymentId, txHash: err.txHash },
      SETTLEMENT_PENDING,
    );
  }

  /**
   * Execution payments that need the worker (for the sweeper): a failed settlement whose retry
   * time has come, a settling one whose lease ran out, and one settled but never linked to its
   * execution (the charge after the settlement did not happen). A registration whose settlement
   * failed created no agent, so it is never retried behind the client's back.
   */
  async due(limit = 100): Promise<string[]> {
    return (await this.dueWork(limit)).map((p) => p.id);
  }

  /** As `due`, each saying whether it is due by its retry schedule (the sweeper's metric counts only lost work). */
  dueWork(limit = 100): Promise<DuePayment[]> {
    const now = this.clock.now();
    return this.payments.due(now, new Date(now.getTime() - this.config.settlementLeaseMs), limit);
  }

  /**
   * A failed (or abandoned settling) authorization past its validBefore, with a margin for a chain
   * clock behind ours: if the chain says it was never used, it never can be, so the payment is
   * `released` and SettlementFailed is thrown with `reason` EXPIRED_UNUSED (final: no more
   * retries). If it was used, or the chain cannot be asked now, the normal path records or retries it.
   */
  private async expireIfUnused(payment: PaymentEntity, now: Date): Promise<void> {
    // Without a chain to ask, an undecided send (settling) may have moved it: never released on a guess.
    if (!this.adapter.readsChain && payment.status === 'settling') return;
    const moved = await this.adapter.settlementOf(toSettleRequest(payment)).catch(() => undefined);
    if (moved !== null) return;
    const reason = 'the authorization expired before it was settled; it moved no money';
    if (!(await this.payments.releaseUnsettled(payment.id, reason, now))) return; // another process holds or settled it
    this.logger.warn({ paymentId: payment.id }, 'authorization expired unused; released, nothing charged');
    throw new SettlementFailed(
      'The payment authorization expired before it could be settled; nothing was charged',
      { paymentId: payment.id },
      EXPIRED_UNUSED,
    );
  }

  /** Records a failed attempt (retried on the schedule) and throws SETTLEMENT_FAILED. */
  private async failed(paymentId: string, attempts: number, err: unknown): Promise<never> {
    if (err instanceof InjectedFault) throw err; // a simulated crash: nothing after it runs
    const message = (err as Error).message?.slice(0, 500) ?? 'settlement failed';
    await this.payments.markFailed(paymentId, new Date(this.clock.nowMs() + settleRetryDelayMs(attempts)), message);
    this.logger.warn({ paymentId, attempts, err: message }, 'settlement failed');
    throw new SettlementFailed('Payment settlement failed; it will be retried', { paymentId });
  }

  /** The chain says the nonce was used while no transfer of these terms used it (settlementOf null). */
  private async usedElsewhere(req: SettleRequest): Promise<boolean> {
    return this.adapter.readsChain && (await this.adapter.authorizationUsed(req).catch(() => false));
  }

  /** Released at once (nothing came to us, nothing can) and SETTLEMENT_FAILED thrown, final (AUTHORIZATION_SPENT). */
  private async spent(paymentId: string, err: unknown): Promise<never> {
    if (err instanceof InjectedFault) throw err;
    const reason = 'the payer used the authorization nonce for another transfer; no money came to us';
    await this.payments.markFailed(paymentId, this.clock.now(), reason);
    await this.payments.releaseUnsettled(paymentId, reason, this.clock.now());
    this.logger.warn({ paymentId }, 'authorization nonce used by another transfer; released, nothing charged');
    throw new SettlementFailed(
      'The payment authorization was used by another transfer of the payer; nothing was charged',
      { paymentId },
      AUTHORIZATION_SPENT,
    );
  }

  private async get(id: string): Promise<PaymentEntity> {
    const payment = await this.payments.get(id);
    if (!payment) throw new AppException('NOT_FOUND', `Payment ${id} not found`);
    return payment;
  }
}
