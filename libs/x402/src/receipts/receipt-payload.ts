import { createHash } from 'node:crypto';
import { canonicalJson } from '@app/json-schema';
import type { ReceiptPayload } from '@x402/extensions/offer-receipt';

/** The receipt payload version agora signs: the extension's v1 fields and what agora adds (draft v2's content hash, and more). */
export const AGORA_RECEIPT_VERSION = 2;

/** EIP-712 domain of receipts (the extension's: name "x402 receipt", version "1", chain id 1). */
export const RECEIPT_DOMAIN = { name: 'x402 receipt', version: '1', chainId: 1 } as const;

/**
 * agora's receipt: the extension's fields (version, network, resourceUrl, payer, issuedAt,
 * transaction) and what was delivered for it. Amounts are atomic units of the asset (USDC:
 * micro-USDC); hashes are `0x` + SHA-256 hex of the RFC 8785 (JCS) canonical JSON.
 */
export interface AgoraReceiptPayload extends ReceiptPayload {
  requestId: string;
  /** What the payment authorized. */
  amount: string;
  /** What the agent earned and the platform kept of it (their sum was charged; the rest was refunded). */
  agentFee: string;
  platformFee: string;
  inputHash: string;
  /** The hash of the output delivered. */
  contentHash: string;
  /** True when the settlement transaction was not yet confirmed when the receipt was issued (`transaction` may be empty). */
  settlementPending: boolean;
}

/** EIP-712 types of agora's receipt: the extension's Receipt with agora's fields appended. */
export const AGORA_RECEIPT_TYPES = {
  Receipt: [
    { name: 'version', type: 'uint256' },
    { name: 'network', type: 'string' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'payer', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'transaction', type: 'string' },
    { name: 'requestId', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'agentFee', type: 'string' },
    { name: 'platformFee', type: 'string' },
    { name: 'inputHash', type: 'bytes32' },
    { name: 'contentHash', type: 'bytes32' },
    { name: 'settlementPending', type: 'bool' },
  ],
};

/** The receipt as EIP-712 signs it (integers as bigint). */
export function receiptMessage(p: AgoraReceiptPayload): Record<string, unknown> {
  return { ...p, version: BigInt(p.version), issuedAt: BigInt(p.issuedAt) };
}

/** What a receipt states, as the charger knows it (the issuer adds version and issuedAt). */
export type ReceiptFacts = Omit<AgoraReceiptPayload, 'version' | 'issuedAt'>;

/** `0x` + SHA-256 hex of a JSON value's canonical form (RFC 8785: sorted keys, no whitespace), as receipts state hashes. */
export function receiptHash(value: unknown): string {
  return `0x${createHash('sha256')
    .update(canonicalJson(value ?? null), 'utf8')
    .digest('hex')}`;
}

const AGORA_FIELDS: Record<string, 'string' | 'boolean'> = {
  requestId: 'string',
  amount: 'string',
  agentFee: 'string',
  platformFee: 'string',
  inputHash: 'string',
  contentHash: 'string',
  settlementPending: 'boolean',
};

/** Whether an untrusted value has the shape of agora's receipt payload (an offer, or another issuer's v1 receipt, has not). */
export function isAgoraReceiptPayload(v: unknown): v is AgoraReceiptPayload {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  if (p.version !== AGORA_RECEIPT_VERSION || !Number.isSafeInteger(p.issuedAt) || 'scheme' in p) return false;
  for (const f of ['network', 'resourceUrl', 'payer', 'transaction']) if (typeof p[f] !== 'string') return false;
  for (const [f, t] of Object.entries(AGORA_FIELDS)) if (typeof p[f] !== t) return false;
  return /^0x[0-9a-f]{64}$/.test(p.inputHash as string) && /^0x[0-9a-f]{64}$/.test(p.contentHash as string);
}
