import type { PaymentOffer } from '@app/common';
import { receiptExtension, type PresentedPayment, type SettlementReceipt } from '@app/x402';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';

/** x402 over HTTP: which request header carries a payment, and how receipts and offers are written. */
const REQUEST_HEADERS = { v1: 'x-payment', v2: 'payment-signature' } as const;

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** The payment a request presents (`PAYMENT-SIGNATURE` for v2, else `X-PAYMENT` for v1), if any. */
export function presentedPayment(headers: Record<string, string | string[] | undefined>): PresentedPayment | null {
  const v2 = headers[REQUEST_HEADERS.v2];
  if (typeof v2 === 'string' && v2) return { value: v2, version: 2 };
  const v1 = headers[REQUEST_HEADERS.v1];
  if (typeof v1 === 'string' && v1) return { value: v1, version: 1 };
  return null;
}

/**
 * The settlement response header (`PAYMENT-RESPONSE` for v2, `X-PAYMENT-RESPONSE` for v1), with the
 * signed receipt in `extensions["offer-receipt"].info.receipt` (with the extension's `schema`) when there is one.
 */
export function receiptHeaders(
  receipt: SettlementReceipt | null,
  signed?: SignedReceipt | null,
): Record<string, string> {
  if (!receipt) return {};
  const name = receipt.x402Version === 2 ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE';
  return {
    [name]: b64json({
      success: true,
      transaction: receipt.transaction,
      network: receipt.network,
      payer: receipt.payer,
      ...(signed ? { extensions: receiptExtension(signed) } : {}),
    }),
  };
}

/** A 402's offer: the v1 fields beside the envelope, the v2 object in `PAYMENT-REQUIRED`. */
export function offerRendering(offer: PaymentOffer): {
  body: Record<string, unknown>;
  headers: Record<string, string>;
} {
  return { body: { x402Version: 1, accepts: offer.accepts }, headers: { 'PAYMENT-REQUIRED': b64json(offer.v2) } };
}
