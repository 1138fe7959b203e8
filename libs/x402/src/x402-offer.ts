import { PaymentOption } from './networks';
import { paymentIdentifierOffer } from './payment-identifier';
import { PaymentRequiredV2, PaymentRequirementsV1, PaymentRequirementsV2, PriceRequest } from './x402.types';

export const MAX_TIMEOUT_SECONDS = 300;

/** What a deployment offers to be paid with: its networks and assets, its wallet, and whether money is real. */
export interface OfferTerms {
  options: PaymentOption[];
  payTo: string;
  livemode: boolean;
  /** The v2 `error` text (a test deployment says it is one). */
  requiredMessage: string;
  /** Whether a route taking a payment identifier requires one (PAYMENT_IDENTIFIER_REQUIRED). */
  paymentIdRequired: boolean;
}

/** The extensions a price's 402 offers: its discovery extensions and, where the route takes one, `payment-identifier`. */
export function offeredExtensions(
  price: PriceRequest,
  paymentIdRequired: boolean,
): Record<string, unknown> | undefined {
  const discovery = price.discovery?.().extensions;
  if (!price.paymentIdentifier) return discovery;
  return { ...discovery, ...paymentIdentifierOffer(paymentIdRequired) };
}

/** The 402 offer: the v1 `accepts` entries (v1-safe networks only) and the v2 PaymentRequired object. */
export interface X402Offer {
  accepts: PaymentRequirementsV1[];
  v2: PaymentRequiredV2;
}

/**
 * The v1 entries (v1-safe networks only) and the v2 PaymentRequired object for one price, with the
 * price's discovery extensions; `error` replaces the v2 error text (e.g. `extension_echo_mismatch`).
 */
export function buildOffer(terms: OfferTerms, price: PriceRequest, error?: string): X402Offer {
  const { options, payTo, livemode } = terms;
  const amount = price.amount.toString();
  const accepts: PaymentRequirementsV1[] = options
    .filter((o) => o.network.inV1Body)
    .map((o) => ({
      scheme: 'exact',
      network: o.network.name,
      maxAmountRequired: amount,
      resource: price.resource,
      description: price.description,
      mimeType: 'application/json',
      payTo,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      asset: o.asset,
      extra: { name: o.assetName, version: '2', livemode },
    }));
  const discovery = price.discovery?.();
  const extensions = offeredExtensions(price, terms.paymentIdRequired);
  const v2: PaymentRequiredV2 = {
    x402Version: 2,
    error: error ?? terms.requiredMessage,
    resource: {
      url: price.resource,
      description: price.description,
      mimeType: 'application/json',
      ...(discovery?.serviceName ? { serviceName: discovery.serviceName } : {}),
      ...(discovery?.tags?.length ? { tags: discovery.tags } : {}),
    },
    accepts: options.map((o): PaymentRequirementsV2 => ({
      scheme: 'exact',
      network: o.network.caip2,
      amount,
      asset: o.asset,
      payTo,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra: { name: o.assetName, version: '2', livemode },
    })),
    ...(extensions ? { extensions } : {}),
  };
  return { accepts, v2 };
}
