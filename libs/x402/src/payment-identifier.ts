import {
  declarePaymentIdentifierExtension,
  extractAndValidatePaymentIdentifier,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { PaymentInvalid } from './x402.errors';

export { PAYMENT_IDENTIFIER };

/** The `payment-identifier` extension a 402 offers (x402 extension; `required` per deployment). */
export function paymentIdentifierOffer(required: boolean): Record<string, unknown> {
  return { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(required) };
}

/**
 * The id a v2 payment payload carries in its `payment-identifier` extension (16-128 of
 * `[A-Za-z0-9_-]`), read and validated with `@x402/extensions`: null when it carries none;
 * PAYMENT_INVALID (`invalid_payment_identifier`) when the extension is malformed.
 */
export function paymentIdOf(extensions: unknown): string | null {
  if (extensions === null || typeof extensions !== 'object' || !(PAYMENT_IDENTIFIER in extensions)) return null;
  const { id, validation } = extractAndValidatePaymentIdentifier({ extensions } as never);
  if (!validation.valid)
    throw new PaymentInvalid(`The payment-identifier extension is malformed: ${validation.errors?.join('; ')}`, {
      reason: 'invalid_payment_identifier',
    });
  return id;
}
