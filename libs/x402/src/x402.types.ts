import type { DiscoveryOffer } from './x402-bazaar';

/** x402 wire types (x402.md §1, §4). Every number is a decimal string. */
export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface ExactEvmPayload {
  signature: string;
  authorization: Authorization;
}

export interface PaymentRequirementsV1 {
  scheme: 'exact';
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  /** The token's EIP-712 domain, and whether paying moves real money (false: a test deployment). */
  extra: { name: string; version: string; livemode: boolean };
}

export interface PaymentRequirementsV2 {
  scheme: 'exact';
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  /** The token's EIP-712 domain, and whether paying moves real money (false: a test deployment). */
  extra: { name: string; version: string; livemode: boolean };
}

export interface PaymentRequiredV2 {
  x402Version: 2;
  error?: string;
  resource: { url: string; description: string; mimeType: string; serviceName?: string; tags?: string[] };
  accepts: PaymentRequirementsV2[];
  /** x402 extensions offered with the resource (e.g. `bazaar`, for discovery). */
  extensions?: Record<string, unknown>;
}

/** What a paid route asks for. */
export interface PriceRequest {
  /** micro-USDC, the exact amount due */
  amount: bigint;
  /** Absolute URL of the paid resource. */
  resource: string;
  description: string;
  /** Discovery metadata for the v2 402 (built on demand: only a 402 or a payment that echoes extensions asks). */
  discovery?: () => DiscoveryOffer;
  /** The route takes an x402 payment identifier (its 402 offers the `payment-identifier` extension). */
  paymentIdentifier?: boolean;
}

/** A payment that passed every check, not yet reserved. */
export interface VerifiedPayment {
  x402Version: 1 | 2;
  network: string;
  chainId: number;
  asset: string;
  assetName: string;
  payer: string;
  payTo: string;
  nonce: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  signature: string;
  headerHash: string;
}

/**
 * A payment as the client presented it: the x402 payload (base64 JSON) and its protocol version
 * (1: sent as `X-PAYMENT`, 2: as `PAYMENT-SIGNATURE`). The transport finds it; libs never see
 * request headers.
 */
export interface PresentedPayment {
  value: string;
  version: 1 | 2;
}

/** What a settled payment shows its payer (the x402 settlement response; the transport renders it). */
export interface SettlementReceipt {
  x402Version: number;
  /** The network as the payment's protocol version names it (v1 name, v2 CAIP-2). */
  network: string;
  payer: string;
  transaction: string;
}
