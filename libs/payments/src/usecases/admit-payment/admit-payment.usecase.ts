import { Injectable } from '@nestjs/common';
import { newId } from '@app/common';
import { Queryable } from '@app/database';
import {
  NonceClaim,
  NonceGuard,
  PaymentInvalid,
  paymentReplayed,
  PresentedPayment,
  PriceRequest,
  RecoveredPayment,
  VerifiedPayment,
  X402Service,
} from '@app/x402';
import { PaymentFundings } from '../../funding/payment-fundings';
import { X402Funding } from '../../funding/x402-funding';
import { PaymentsRepository } from '../../payments.repository';
import { SettlementAdapter } from '@app/onchain';

/**
 * Payment admission of an execute request, called once per request: recover the signer (CPU, now),
 * verify against the price, claim the nonce, check it unused, preflight, give back. It does no
 * round trip of its own: the caller runs `usedCheck` in its one pooled Postgres batch and sends
 * `claimRequest` in its one Redis round trip (the rate limiter's), then reports back with `claimed`.
 */
@Injectable()
export class AdmitPayment {
  constructor(
    private readonly x402: X402Service,
    private readonly nonces: NonceGuard,
    private readonly payments: PaymentsRepository,
    private readonly adapter: SettlementAdapter,
    private readonly fundings: PaymentFundings,
  ) {}

  execute(header: PresentedPayment | null): PaymentAdmission {
    return new PaymentAdmission(header, this.x402, this.nonces, this.payments, this.adapter, this.fundings);
  }
}

/** One request's payment on its way in; its steps in the order the caller takes them. */
export class PaymentAdmission {
  private readonly recovered: RecoveredPayment | null = null;
  private readonly recoverError: unknown = null;
  private verified: VerifiedPayment | null = null;
  private verifyError: unknown = null;
  private holdsClaim = false;

  constructor(
    private readonly header: PresentedPayment | null,
    private readonly x402: X402Service,
    private readonly nonces: NonceGuard,
    private readonly payments: PaymentsRepository,
    private readonly adapter: SettlementAdapter,
    private readonly fundings: PaymentFundings,
  ) {
    if (!header) return;
    try {
      this.recovered = x402.recover(header);
    } catch (err) {
      this.recoverError = err;
    }
  }

  /** Whether the payment's nonce has to be looked up (a signer was recovered). */
  get needsUsedCheck(): boolean {
    return this.recovered !== null;
  }

  /** For the caller's pooled batch: whether the authorization is already in `payments`. */
  usedCheck(sql: Queryable): Promise<boolean> {
    const nonce = this.nonce();
    return nonce ? this.payments.authorizationUsed(nonce, sql) : Promise.resolve(false);
  }

  /** The payment an authorization already presented here was recorded as (null: none), to find what it paid for. */
  usedPaymentId(): Promise<string | null> {
    const nonce = this.nonce();
    return nonce ? this.payments.idOfAuthorization(nonce) : Promise.resolve(null);
  }

  private nonce() {
    const r = this.recovered;
    return r ? { chainId: r.option.network.chainId, asset: r.option.asset, payer: r.payer, nonce: r.auth.nonce } : null;
  }

  /** Verifies the payment's terms against the price (CPU; null: no price yet). */
  priceAt(price: PriceRequest | null): void {
    this.verified = null;
    this.verifyError = null;
    if (!price || !this.recovered || !this.header) return;
    try {
      this.verified = this.x402.verify(this.header, price, this.recovered);
    } catch (err) {
      this.verifyError = err;
    }
  }

  /** Who signed the payment (recovered, not yet verified against a price; null: none recovered). */
  get signer(): string | null {
    return this.recovered?.payer ?? null;
  }

  /** The payment's x402 payment identifier (v2 `payment-identifier`; null: none). */
  get paymentId(): string | null {
    return this.recovered?.paymentId ?? null;
  }

  /** What the verified payment is: its network, asset, amount and nonce (null: not verified). */
  get terms(): { network: string; chainId: number; asset: string; amount: string; nonce: string } | null {
    const v = this.verified;
    return v
      ? { network: v.network, chainId: v.chainId, asset: v.asset, amount: String(v.value), nonce: v.nonce }
      : null;
  }

  /** Whether a payment header was presented at all. */
  get presented(): boolean {
    return this.header !== null;
  }

  /** Who pays, once the payment verified (else null: the caller counts it by IP). */
  get payer(): string | null {
    return this.verified?.payer ?? null;
  }

  /** The nonce claim to take in the caller's Redis round trip (only for a verified payment). */
  claimRequest(): NonceClaim | undefined {
    return this.verified ? this.nonces.claimRequest(this.verified) : undefined;
  }

  /** What the Redis round trip answered: whether this request took the nonce claim. */
  claimed(took: boolean): void {
    this.holdsClaim = took;
  }

  /** After a re-pricing (the target changed since the claim was sent): a payment verified only now holds no claim. */
  assertClaimHeld(): void {
    if (this.verified && !this.holdsClaim) throw paymentReplayed();
  }

  /**
   * The payment checked in order: present (else PAYMENT_REQUIRED with the offer), recovered (an
   * invalid one answers the offer too), not already presented here (PAYMENT_REPLAYED, whatever its
   * terms say now: an authorization whose settlement may be under way is never answered with a 402,
   * which would have a client pay again), verified, and the used-check read succeeded. Answers the payer.
   */
  check(price: PriceRequest, used: PromiseSettledResult<boolean>): string {
    if (!this.header) throw this.x402.paymentRequired(price);
    const recoverError = this.recoverError;
    if (recoverError)
      throw recoverError instanceof PaymentInvalid ? this.x402.withOffer(recoverError, price) : recoverError;
    if (used.status === 'fulfilled' && used.value) throw paymentReplayed();
    if (this.verifyError || !this.verified) throw this.verifyError;
    if (used.status === 'rejected') throw used.reason;
    return this.verified.payer;
  }

  /**
   * The payment proves its payer now: it verifies against the price, is unused, and this request
   * holds its nonce claim (a signed authorization read from the chain is used, so it does not).
   */
  assertFresh(price: PriceRequest, used: PromiseSettledResult<boolean>): void {
    this.check(price, used);
    if ((used as PromiseFulfilledResult<boolean>).value || !this.holdsClaim) throw paymentReplayed();
  }

  /** Admitted: unused, preflighted (the adapter's own check), its claim held. The funding of the run. */
  async admit(used: PromiseFulfilledResult<boolean>): Promise<X402Funding> {
    if (used.value) throw paymentReplayed();
    await this.adapter.preflight(this.verified!);
    if (!this.holdsClaim) throw paymentReplayed();
    return this.fundings.fromVerified(this.verified!, newId('pay'));
  }

  /** The request did no paid work (`err`: why, null for an idempotent replay): a nonce claim it holds goes back. */
  giveBack(err: unknown): void {
    if (!this.holdsClaim || !this.verified) return;
    this.nonces.giveBackAfter(err, this.verified);
    this.adapter.releaseHold(this.verified);
  }
}
