import { Injectable } from '@nestjs/common';
import { Clock, NotFoundException } from '@app/common';
import { FindPayments, PaymentRecord } from '@app/payments';
import { ExecutionRefsRepository } from '../../../execution-refs.repository';
import { parsePaymentRef, PaymentStatusName, paymentStatusOf } from './payment-status';

/** At most this many payments answer one reference (several payers may share a nonce or an identifier). */
export const PAYMENT_STATUS_LIMIT = 20;

/** A payment as the public status read shows it: no output, signature or header. */
export interface PaymentStatusView {
  status: PaymentStatusName;
  purpose: PaymentRecord['purpose'];
  network: string;
  chainId: number;
  asset: string;
  payer: string;
  amount: bigint;
  nonce: string;
  /** The settlement transaction: once settled (or refunded), and while pending once one was sent. */
  txHash: string | null;
  /** The execution it paid for (its request id), if any. */
  requestId: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

/**
 * `GET /payments/status/:ref`: what became of a payment, for any client (payments.md, "Settlement
 * states"). The reference is a settlement transaction's hash, an authorization's nonce or a payment
 * identifier (an idempotency key in force); each matching payment (newest first, at most
 * PAYMENT_STATUS_LIMIT) with its status, mapped by `paymentStatusOf` from its row and the execution
 * it paid for. VALIDATION_ERROR for a malformed reference, NOT_FOUND when nothing matches.
 */
@Injectable()
export class GetPaymentStatus {
  constructor(
    private readonly payments: FindPayments,
    private readonly refs: ExecutionRefsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(ref: string): Promise<PaymentStatusView[]> {
    const { hash, identifier } = parsePaymentRef(ref);
    const ids = await this.refs.paymentsOfKey(identifier, this.clock.now(), PAYMENT_STATUS_LIMIT);
    const found = await this.payments.execute({ hash, ids }, PAYMENT_STATUS_LIMIT);
    if (found.length === 0) throw new NotFoundException('NOT_FOUND', 'Payment', ref);
    const paid = found.filter((p) => p.purpose === 'execution').map((p) => p.id);
    const executions = new Map((await this.refs.byPayments(paid)).map((e) => [e.paymentId, e]));
    return found.map((p) => {
      const execution = executions.get(p.id) ?? null;
      const status = paymentStatusOf(p, execution);
      const sent = status === 'settled' || status === 'refunded' || status === 'settlement_pending';
      return {
        status,
        purpose: p.purpose,
        network: p.network,
        chainId: p.chainId,
        asset: p.asset,
        payer: p.payer,
        amount: p.value,
        nonce: p.nonce,
        txHash: sent ? p.txHash : null,
        requestId: execution?.id ?? null,
        createdAt: p.createdAt,
        settledAt: status === 'settled' || status === 'refunded' ? p.settledAt : null,
      };
    });
  }
}
