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
  extra: { name: string; version: string };
}

export interface PaymentRequirementsV2 {
  scheme: 'exact';
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export interface PaymentRequiredV2 {
  x402Version: 2;
  error?: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: PaymentRequirementsV2[];
}

/** What a paid route asks for. */
export interface PriceRequest {
  /** micro-USDC, the exact amount due */
  amount: bigint;
  /** Absolute URL of the paid resource. */
  resource: string;
  description: string;
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
  /** Which response header to answer with. */
  responseHeader: 'X-PAYMENT-RESPONSE' | 'PAYMENT-RESPONSE';
}

export const X402_HEADERS = { v1: 'x-payment', v2: 'payment-signature' } as const;
