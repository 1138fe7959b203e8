import { checksumAddress, Clock } from '@app/common';
import { Queryable } from '@app/database';
import {
  NOTHING_DELIVERED,
  NonceGuard,
  ReceiptSigner,
  requestCommitment,
  saltedReceiptHash,
  VerifiedPayment,
  X402Service,
} from '@app/x402';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import { PaymentEntity } from '../entities/payment.entity';
import { logSettlementConfirmed, SettlementAdapter, SettlementFailed } from '@app/onchain';
import { toSettleRequest } from '../payment-rows';
import { PaymentsRepository } from '../payments.repository';
import {
  AUTHORIZATION_SPENT,
  EXPIRED_UNUSED,
  SETTLEMENT_PENDING,
  SettlePayment,
} from '../usecases/settle-payment/settle-payment.usecase';
import { RecordCharge, RecordedCharge } from '../usecases/record-charge/record-charge.usecase';
import { Delivery, Funding, RunCharge, SettleFailure } from './funding';

export interface X402FundingDeps {
  payments: PaymentsRepository;
  settle: SettlePayment;
  nonces: NonceGuard;
  clock: Clock;
  charges: RecordCharge;
  receipts: ReceiptSigner;
  /** Releases what the preflight held of the payer's balance for this call (PayerHolds). */
  adapter: Pick<SettlementAdapter, 'releaseHold'>;
}

/**
 * An x402 authorization paying for one execution: verified now (holding a nonce claim), or stored.
 * Recording its charge is its own: inline (local mode) the payment is written settled with the
 * charge; otherwise it is settled outside first (SettlePayment) and linked in the charge.
 */
export class X402Funding implements Funding {
  private readonly inlineHash: string | null;

  constructor(
    private payment: PaymentEntity,
    private readonly deps: X402FundingDeps,
    /** Set while this request holds the nonce claim of a payment verified now. */
    private readonly claim: VerifiedPayment | null,
    inlineHash: (p: PaymentEntity) => string | null,
  ) {
    this.inlineHash = payment.status === 'settled' ? null : inlineHash(payment);
  }

  get payer(): string {
    return this.payment.payer;
  }

  get id(): string {
    return this.payment.id;
  }

  get proofHash(): string {
    return this.payment.headerHash;
  }

  readonly refundsUnused = true;

  /** What the payment carries (micro-USDC). */
  get value(): bigint {
    return this.payment.value;
  }

  get settlesOutside(): boolean {
    return this.inlineHash === null;
  }

  async reserve(sql: Queryable, executionId: string): Promise<unknown> {
    void executionId;
    return this.deps.payments.insert(sql, this.payment);
  }

  /** Inside the caller's transaction: the payment recorded already settled inline (local mode), linked to `refId`. */
  recordInline(sql: Queryable, refId: string): Promise<unknown> {
    if (this.inlineHash === null) throw new Error('this payment settles outside Postgres');
    return this.insertSettled(sql, this.inlineHash, refId);
  }

  /** Inside the caller's transaction: links the payment, settled outside, to what it paid for. */
  link(sql: Queryable, refId: string): Promise<unknown> {
    return this.deps.payments.bind(sql, this.payment.id, refId);
  }

  async settleWrites(sql: Queryable, executionId: string, fresh: boolean): Promise<unknown> {
    if (this.inlineHash === null) return this.deps.payments.bind(sql, this.payment.id, executionId);
    return fresh
      ? this.insertSettled(sql, this.inlineHash, executionId)
      : this.settleInline(sql, this.inlineHash, executionId);
  }

  async failWrites(): Promise<unknown> {
    // The authorization stays reserved for a retry; the failed run no longer holds the payer's balance.
    this.deps.adapter.releaseHold(toSettleRequest(this.payment));
    return undefined;
  }

  /** The charge paid by the payment arriving from the chain; the payer asked for the run. */
  recordCharge(sql: Queryable, charge: RunCharge): Promise<RecordedCharge> {
    const p = this.payment;
    return this.deps.charges.write(sql, { ...charge, paymentId: p.id, payerWallet: p.payer, requestingAgent: p.payer });
  }

  async afterEnd(charged?: RecordedCharge): Promise<void> {
    if (charged) await this.deps.charges.afterCommit(charged);
  }

  async settleOutside(): Promise<SettleFailure | null> {
    if (this.inlineHash !== null) throw new Error('an inline settlement is written with the charge');
    try {
      await this.settle();
      return null;
    } catch (err) {
      if (!(err instanceof SettlementFailed)) throw err;
      const pending = err.reason === SETTLEMENT_PENDING;
      const txHash = pending ? (err.details?.txHash as string | undefined) : undefined;
      if (txHash) this.payment.txHash = txHash;
      return {
        final: err.reason === EXPIRED_UNUSED || err.reason === AUTHORIZATION_SPENT,
        pending,
        txHash: txHash ?? null,
      };
    }
  }

  /** Settles the payment (SettlePayment, whatever the mode); throws SETTLEMENT_FAILED. */
  async settle(): Promise<void> {
    this.payment = await this.deps.settle.execute(this.payment);
  }

  receipt() {
    return this.payment.status === 'settled'
      ? { txHash: this.payment.txHash, receipt: X402Service.receipt(this.payment, this.payment.txHash ?? '') }
      : { txHash: null, receipt: null };
  }

  signReceipt(d: Delivery, settlementPending: boolean): Promise<SignedReceipt | null> {
    const p = this.payment;
    const { network, payer } = X402Service.receipt(p, '');
    return this.deps.receipts.receipt({
      network,
      resourceUrl: d.resourceUrl,
      payer: checksumAddress(payer),
      transaction: this.inlineHash ?? p.txHash ?? '',
      requestCommitment: requestCommitment(d.requestId, d.salt),
      agentId: d.agentId,
      capabilityId: d.capabilityId,
      amount: p.value.toString(),
      agentFee: settlementPending ? '0' : d.agentFee.toString(),
      platformFee: settlementPending ? '0' : d.platformFee.toString(),
      inputHash: saltedReceiptHash(d.input, d.salt),
      contentHash: settlementPending ? NOTHING_DELIVERED : saltedReceiptHash(d.output, d.salt),
      settlementPending,
    });
  }

  giveBack(err: unknown): void {
    if (!this.claim) return;
    this.deps.nonces.giveBackAfter(err, this.claim);
    this.deps.adapter.releaseHold(this.claim);
  }

  /**
   * Inside the caller's transaction: the authorization not yet written, recorded already settled
   * by an inline settlement and linked to what it paid for, in one insert: the sync execute path
   * writes its payment only once the agent has answered.
   */
  private async insertSettled(sql: Queryable, txHash: string, refId: string): Promise<void> {
    const p = this.payment;
    Object.assign(p, { status: 'settled', txHash, settledAt: this.deps.clock.now(), refId });
    p.settleAttempts += 1;
    await this.deps.payments.insert(sql, p);
    logSettlementConfirmed(p);
  }

  /** Inside the caller's transaction: records an inline settlement of the stored payment and links it. */
  private async settleInline(sql: Queryable, txHash: string, refId: string): Promise<void> {
    const p = this.payment;
    const settledAt = this.deps.clock.now();
    await this.deps.payments.settleInline(sql, p.id, txHash, settledAt, refId);
    Object.assign(p, { status: 'settled', txHash, settledAt, refId, nextAttemptAt: null, lastError: null });
    p.settleAttempts += 1;
    logSettlementConfirmed(p);
  }
}
