import {
  declarePaymentIdentifierExtension,
  isValidPaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { PaymentInvalid } from './x402.errors';

export { PAYMENT_IDENTIFIER };

/** The two possible declarations, built once (every paid 402 and every echo check reads one). */
const OFFERS = {
  optional: Object.freeze({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) }),
  required: Object.freeze({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(true) }),
};

/** The `payment-identifier` extension a 402 offers (x402 extension; `required` per deployment). */
export function paymentIdentifierOffer(required: boolean): Readonly<Record<string, unknown>> {
  return required ? OFFERS.required : OFFERS.optional;
}

const malformed = (why: string) =>
  new PaymentInvalid(`The payment-identifier extension is malformed: ${why}`, { reason: 'invalid_payment_identifier' });

/**
 * The id a v2 payment payload carries in its `payment-identifier` extension: null when it carries
 * none; PAYMENT_INVALID (`invalid_payment_identifier`) when malformed. Its `info` is read by hand:
 * `info.required` a boolean, `info.id` 16-128 of `[A-Za-z0-9_-]` (`isValidPaymentId`). The echoed
 * `schema` is never compiled (`validatePaymentIdentifier` of `@x402/extensions` compiles it with a
 * new Ajv: a client's pattern could then stall the process before any rate limit, and every paid
 * call would pay for an Ajv); the offer's own schema is what the id is held to.
 */
export function paymentIdOf(extensions: unknown): string | null {
  if (extensions === null || typeof extensions !== 'object' || !(PAYMENT_IDENTIFIER in extensions)) return null;
  const ext = (extensions as Record<string, unknown>)[PAYMENT_IDENTIFIER];
  const info = ext !== null && typeof ext === 'object' ? (ext as { info?: unknown }).info : undefined;
  if (info === null || typeof info !== 'object') throw malformed('info must be an object');
  const { required, id } = info as { required?: unknown; id?: unknown };
  if (required !== undefined && typeof required !== 'boolean') throw malformed('info.required must be a boolean');
  if (id === undefined) return null;
  if (!isValidPaymentId(id as string)) throw malformed('info.id must be 16-128 of A-Z, a-z, 0-9, "_" and "-"');
  return id as string;
}
