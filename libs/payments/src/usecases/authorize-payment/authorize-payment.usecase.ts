import { Injectable } from '@nestjs/common';
import { AppException, newId, sameWallet } from '@app/common';
import { PresentedPayment, PriceRequest, X402Service } from '@app/x402';
import { PaymentEntity, PaymentPurpose } from '../../entities/payment.entity';
import { unsavedReservation } from '../../payment-rows';
import { PaymentsRepository } from '../../payments.repository';
import { SettlementAdapter } from '@app/onchain';

export interface AuthorizeOptions {
  purpose: PaymentPurpose;
  /** The payer must be this wallet (registration: the wallet being registered). */
  expectedPayer?: string;
}

/**
 * Authorizes a payment on its own (registration; an execution's goes through AdmitPayment):
 * checks the request's payment header against the price and reserves its nonce by inserting the
 * row `reserved`. Without a header: PAYMENT_REQUIRED (402 with the x402 offer). A reused
 * authorization: PAYMENT_REPLAYED (the unique index decides: exactly one request wins a nonce).
 */
@Injectable()
export class AuthorizePayment {
  constructor(
    private readonly x402: X402Service,
    private readonly adapter: SettlementAdapter,
    private readonly payments: PaymentsRepository,
  ) {}

  async execute(header: PresentedPayment | null, price: PriceRequest, opts: AuthorizeOptions): Promise<PaymentEntity> {
    if (!header) throw this.x402.paymentRequired(price);
    const verified = this.x402.verify(header, price);
    if (opts.expectedPayer && !sameWallet(verified.payer, opts.expectedPayer)) {
      throw new AppException('WALLET_MISMATCH', 'The payment must come from the wallet being registered', {
        payer: verified.payer,
        wallet: opts.expectedPayer,
      });
    }
    await this.adapter.preflight(verified);
    const payment = unsavedReservation(verified, opts.purpose, newId('pay'));
    await this.payments.reserve(payment);
    return payment;
  }
}
