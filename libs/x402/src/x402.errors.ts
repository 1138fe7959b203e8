import { AppException, ErrorDetails, PaymentOffer } from '@app/common';

/**
 * A payment header that fails a check (PAYMENT_INVALID): typed, so code that adds the offer or
 * tells it apart asks `instanceof`, not the public code.
 */
export class PaymentInvalid extends AppException {
  constructor(message: string, details?: ErrorDetails, offer?: PaymentOffer) {
    super('PAYMENT_INVALID', message, details, offer);
  }
}

/** An authorization already used (PAYMENT_REPLAYED): its nonce claim is not given back. */
export class PaymentReplayed extends AppException {
  constructor(message: string, details?: ErrorDetails) {
    super('PAYMENT_REPLAYED', message, details);
  }
}
