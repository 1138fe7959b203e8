import {
  createOfferReceiptExtension,
  OFFER_RECEIPT,
  type SignedOffer,
  type SignedReceipt,
} from '@x402/extensions/offer-receipt';

type Schema = Record<string, unknown>;
type Extension = ReturnType<typeof createOfferReceiptExtension>;
type RequiredContext = Parameters<NonNullable<Extension['enrichPaymentRequiredResponse']>>[1];
type SettledContext = Parameters<NonNullable<Extension['enrichSettlementResponse']>>[1];

/**
 * The JSON Schemas the reference resource server sends beside `info` in `extensions["offer-receipt"]`
 * (x402 v2 §5.1.2: every extension carries `info` and `schema`), read from @x402/extensions' own
 * extension: it does not export them, and its hooks are async where agora builds a 402 synchronously,
 * so they are read once, here, from what its hooks answer (the placeholder issuer's signatures dropped).
 */
async function readReferenceSchemas(): Promise<{ offer: Schema; receipt: Schema }> {
  const signed = { format: 'jws', signature: '' } as const;
  const extension = createOfferReceiptExtension({
    kid: '',
    format: 'jws',
    issueOffer: () => Promise.resolve(signed),
    issueReceipt: () => Promise.resolve(signed),
  });
  const url = 'https://example.com/';
  const accept = { scheme: 'exact', network: 'eip155:1', asset: '', amount: '0', payTo: '', maxTimeoutSeconds: 1 };
  const offer = (await extension.enrichPaymentRequiredResponse!(undefined, {
    requirements: [{ ...accept, extra: {} }],
    resourceInfo: { url },
    paymentRequiredResponse: { x402Version: 2, resource: { url }, accepts: [{ ...accept, extra: {} }] },
  } as RequiredContext)) as { schema: Schema };
  const receipt = (await extension.enrichSettlementResponse!(undefined, {
    result: { success: true, payer: '0x', network: 'eip155:1', transaction: '' },
    transportContext: { request: { adapter: { getUrl: () => url } } },
  } as unknown as SettledContext)) as { schema: Schema };
  return { offer: offer.schema, receipt: receipt.schema };
}

let schemas: { offer: Schema; receipt: Schema } | null = null;
/** Settles within the import's own tick (the placeholder signs at once); ReceiptSigner awaits it before serving. */
export const offerReceiptSchemasReady: Promise<void> = readReferenceSchemas().then((s) => {
  schemas = s;
});
// Handled where it is awaited (ReceiptSigner's start, with its message): never an unhandled rejection
// in a process that imports this module without serving receipts.
offerReceiptSchemasReady.catch(() => undefined);

function loaded(): { offer: Schema; receipt: Schema } {
  if (!schemas) throw new Error('the offer-receipt schemas are read at start: await offerReceiptSchemasReady first');
  return schemas;
}

/** A 402's `extensions["offer-receipt"]`: the signed offers and the schema the reference server gives them. */
export function offersExtension(offers: SignedOffer[]): Record<string, unknown> {
  return { [OFFER_RECEIPT]: { info: { offers }, schema: loaded().offer } };
}

/** A settlement response's `extensions["offer-receipt"]`: the signed receipt and the reference server's schema. */
export function receiptExtension(receipt: SignedReceipt): Record<string, unknown> {
  return { [OFFER_RECEIPT]: { info: { receipt }, schema: loaded().receipt } };
}
