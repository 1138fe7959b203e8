import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { NonceGuard, PresentedPayment, ReceiptSigner, VerifiedPayment, X402Service } from '@app/x402';
import { PaymentEntity } from '../entities/payment.entity';
import { unsavedReservation } from '../payment-rows';
import { DuePayment, PaymentRecord, PaymentsRepository } from '../payments.repository';
import { RefundsService } from '../refunds.service';
import { toSettleRequest } from '../payment-rows';
import { SettlementAdapter } from '@app/onchain';
import { SettlePayment } from '../usecases/settle-payment/settle-payment.usecase';
import { RecordCharge } from '../usecases/record-charge/record-charge.usecase';
import { PaidSettlement } from './funding';
import { X402Funding, X402FundingDeps } from './x402-funding';

/** What names the payments to find: a lower-case 0x hash, and payment ids. */
export interface PaymentLookup {
  hash: string | null;
  ids: string[];
  /** The paying wallet: a nonce or an identifier is the payer's own, and only its payments are answered. */
  payer: string | null;
}

/**
 * The x402 side of "what pays" for an execution: the funding of a payment verified now (built by
 * AdmitPayment) or stored, its settlement by the worker, and what its payer sees of it.
 */
@Injectable()
export class PaymentFundings {
  private readonly deps: X402FundingDeps;

  constructor(
    payments: PaymentsRepository,
    settle: SettlePayment,
    nonces: NonceGuard,
    clock: Clock,
    private readonly adapter: SettlementAdapter,
    private readonly refunds: RefundsService,
    charges: RecordCharge,
    receipts: ReceiptSigner,
  ) {
    this.deps = { payments, settle, nonces, clock, charges, receipts, adapter };
  }

  /**
   * Whether a request presents the payment whose header hashed to `headerHash` (the header is
   * never stored in clear): the proof for reading an output and for retrying.
   */
  static presents(payment: PresentedPayment | null, headerHash: string | null): boolean {
    return payment !== null && X402Service.hashHeader(payment.value) === headerHash;
  }

  /** A payment verified by this request, not yet written (`paymentId` is the id it will have). */
  fromVerified(verified: VerifiedPayment, paymentId: string): X402Funding {
    return this.build(unsavedReservation(verified, 'execution', paymentId), verified);
  }

  /** The funding of a stored payment; NOT_FOUND if there is none. */
  async stored(paymentId: string): Promise<X402Funding> {
    const payment = await this.deps.payments.get(paymentId);
    if (!payment) throw new AppException('NOT_FOUND', `Payment ${paymentId} not found`);
    return this.build(payment, null);
  }

  /** A stored payment as it stands (null if there is none). */
  find(paymentId: string): Promise<PaymentEntity | null> {
    return this.deps.payments.get(paymentId);
  }

  /**
   * The payments a public reference names (the payment status read): those whose settlement
   * transaction or, with a payer, authorization nonce is `hash`, and those of `ids` (with a payer:
   * theirs only); newest first, at most `limit`. Several payers may share a nonce.
   */
  async lookup(lookup: PaymentLookup, limit: number): Promise<PaymentRecord[]> {
    if (lookup.hash === null && lookup.ids.length === 0) return [];
    return this.deps.payments.matching(lookup.hash, lookup.ids, lookup.payer, limit);
  }

  /** The worker settles a payment nothing was charged for yet; answers its status. */
  async settle(paymentId: string): Promise<string> {
    return (await this.deps.settle.execute(paymentId)).status;
  }

  /** Execution payments the worker should finish (SettlePayment.dueWork: `scheduled` when due by their retry schedule). */
  due(): Promise<DuePayment[]> {
    return this.deps.settle.dueWork();
  }

  /** A settled payment's hash and receipt (`paymentId` null: not settled by a payment) and the refund `refundId` names. */
  async settlementOf(paymentId: string | null, refundId: string | null): Promise<PaidSettlement> {
    const refund = refundId ? await this.refunds.get(refundId) : null;
    const payment = paymentId ? await this.deps.payments.get(paymentId) : null;
    return payment
      ? { txHash: payment.txHash, receipt: X402Service.receipt(payment, payment.txHash ?? ''), refund }
      : { txHash: null, receipt: null, refund };
  }

  /**
   * A payment whose settlement is not decided yet, as its payer sees it: the hash of the transaction
   * carrying it once one was sent (bound before broadcast), no receipt yet.
   */
  async pendingSettlement(paymentId: string): Promise<PaidSettlement> {
    const p = await this.deps.payments.get(paymentId);
    const sent = p !== null && (p.status === 'settling' || p.status === 'settled');
    return { txHash: sent ? p.txHash : null, receipt: null, refund: null };
  }

  private build(payment: PaymentEntity, claim: VerifiedPayment | null): X402Funding {
    return new X402Funding(payment, this.deps, claim, (p) => this.adapter.inlineTxHash(toSettleRequest(p)));
  }
}
