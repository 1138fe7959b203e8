import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '@app/json-schema';
import type { EIP712SignedReceipt, JWSSignedReceipt, ReceiptPayload } from '@x402/extensions/offer-receipt';

/**
 * The receipt payload version agora signs: the extension's v1 fields and what agora adds (draft v2's
 * content hash, and more). 4: the request id is stated by its salted commitment (`requestCommitment`), never
 * in plain; 3: the hashes are salted (saltedReceiptHash) and the request id plain; 2, before: bare SHA-256.
 */
export const AGORA_RECEIPT_VERSION = 4;
/** Versions still verified (2: before the hashes were salted; 3: before the request id was committed to). */
const VERIFIED_VERSIONS = new Set([2, 3, 4]);

/**
 * EIP-712 domain of agora's own statement of a receipt (its fields below). Never the extension's
 * ("x402 receipt", version "1"): under that domain only the extension's exact Receipt type may be
 * signed (offer-receipt §3.2.1), which an EIP-712 receipt's `payload` and `signature` are.
 */
export const DELIVERY_DOMAIN = { name: 'agora receipt', version: '1', chainId: 1 } as const;

/**
 * agora's receipt: the extension's fields (version, network, resourceUrl, payer, issuedAt,
 * transaction) and what was delivered for it. Amounts are atomic units of the asset (USDC:
 * micro-USDC); hashes (version 3) are `0x` + HMAC-SHA256 hex, keyed with the execution's receipt salt
 * (given to the payer only), of the RFC 8785 (JCS) canonical JSON; version 2's were its bare SHA-256.
 */
export interface AgoraReceiptPayload extends ReceiptPayload {
  /**
   * The request id, committed to (version 4): saltedReceiptHash(requestId, salt). Only the payer, holding the
   * salt, opens it: anyone shown the receipt reads the public `transaction`, never the id that reads the output.
   */
  requestCommitment: string;
  /** Who delivered: the agent and its capability (the /execute route's URL names neither). */
  agentId: string;
  capabilityId: string;
  /** What the payment authorized. */
  amount: string;
  /** What the agent earned and the platform kept of it (their sum was charged; the rest was refunded). */
  agentFee: string;
  platformFee: string;
  inputHash: string;
  /** The hash of the output delivered (zero while settlementPending: nothing was delivered yet). */
  contentHash: string;
  /**
   * True for the receipt of an answer whose settlement was not confirmed yet: `transaction` is the one
   * sent ('' if none yet), nothing is delivered or charged (contentHash zero, fees 0). The charge issues the final one.
   */
  settlementPending: boolean;
}

/**
 * An EIP-712 receipt as agora sends it: the extension's (its v1 `payload`, signed with the extension's
 * exact types and domain, which the reference verifier checks) and, in `delivery`, agora's whole
 * payload signed by the same key under agora's own domain (DELIVERY_DOMAIN, DELIVERY_TYPES).
 */
export interface AgoraEip712Receipt extends EIP712SignedReceipt {
  delivery: { payload: AgoraReceiptPayload; signature: string };
}
export type AgoraSignedReceipt = JWSSignedReceipt | AgoraEip712Receipt;

/** A version 2 or 3 receipt's payload, still verified: the request id in plain where 4 commits to it. */
export type AgoraReceiptPayloadV3 = Omit<AgoraReceiptPayload, 'requestCommitment'> & { requestId: string };
/** Any receipt payload agora verifies (versions 2 to 4). */
export type AnyAgoraReceiptPayload = AgoraReceiptPayload | AgoraReceiptPayloadV3;

/** EIP-712 types of agora's statement: the extension's receipt fields, then agora's. */
export const DELIVERY_TYPES = {
  AgoraReceipt: [
    { name: 'version', type: 'uint256' },
    { name: 'network', type: 'string' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'payer', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'transaction', type: 'string' },
    { name: 'requestCommitment', type: 'bytes32' },
    { name: 'agentId', type: 'string' },
    { name: 'capabilityId', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'agentFee', type: 'string' },
    { name: 'platformFee', type: 'string' },
    { name: 'inputHash', type: 'bytes32' },
    { name: 'contentHash', type: 'bytes32' },
    { name: 'settlementPending', type: 'bool' },
  ],
};

/** EIP-712 types of a version 2 or 3 statement (still verified): the request id in plain. */
export const DELIVERY_TYPES_V3 = {
  AgoraReceipt: DELIVERY_TYPES.AgoraReceipt.map((f) =>
    f.name === 'requestCommitment' ? { name: 'requestId', type: 'string' } : f,
  ),
};

/** The EIP-712 types a receipt of `version` was signed with. */
export function deliveryTypesOf(version: number): typeof DELIVERY_TYPES {
  return version >= 4 ? DELIVERY_TYPES : DELIVERY_TYPES_V3;
}

/** The receipt as EIP-712 signs it (integers as bigint). */
export function receiptMessage(p: AnyAgoraReceiptPayload): Record<string, unknown> {
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

/**
 * A version 3 receipt's hash: `0x` + HMAC-SHA256 hex of the canonical JSON, keyed with the 32-byte salt
 * (64 hex) given to the payer beside the receipt. Without the salt a short input or output cannot be
 * guessed from the receipt; with it the payer (or anyone it shows both to) checks the bytes.
 */
export function saltedReceiptHash(value: unknown, saltHex: string): string {
  return `0x${createHmac('sha256', Buffer.from(saltHex, 'hex'))
    .update(canonicalJson(value ?? null), 'utf8')
    .digest('hex')}`;
}

/**
 * A version 4 receipt's `requestCommitment`: the salted hash (saltedReceiptHash) of the request id, a JSON string.
 * The payer (or anyone it gives the salt and the id) checks it; without the salt nobody learns or confirms the id.
 */
export function requestCommitment(requestId: string, saltHex: string): string {
  return saltedReceiptHash(requestId, saltHex);
}

/** The hash a receipt of `version` states for `value` (3: salted, which takes the salt; 2: bare SHA-256). */
export function receiptHashFor(version: number, value: unknown, saltHex: string | undefined): string | null {
  if (version < 3) return receiptHash(value);
  return saltHex === undefined ? null : saltedReceiptHash(value, saltHex);
}

/** Whether a receipt as agora sent it (JWS or EIP-712) states salted hashes (version 3 on): its salt goes with it. */
export function hasSaltedHashes(receipt: { format: string; signature: string; delivery?: unknown }): boolean {
  try {
    const payload =
      receipt.format === 'jws'
        ? (JSON.parse(Buffer.from(receipt.signature.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown)
        : (receipt.delivery as { payload?: unknown } | undefined)?.payload;
    const version = (payload as { version?: unknown } | undefined)?.version;
    return typeof version === 'number' && version >= 3;
  } catch {
    return false;
  }
}

const AGORA_FIELDS: Record<string, 'string' | 'boolean'> = {
  agentId: 'string',
  capabilityId: 'string',
  amount: 'string',
  agentFee: 'string',
  platformFee: 'string',
  inputHash: 'string',
  contentHash: 'string',
  settlementPending: 'boolean',
};

const fieldsOf = (types: typeof DELIVERY_TYPES) => new Set(types.AgoraReceipt.map((f) => f.name));
const RECEIPT_FIELDS = { current: fieldsOf(DELIVERY_TYPES), v3: fieldsOf(DELIVERY_TYPES_V3) };
const HASH = /^0x[0-9a-f]{64}$/;
const SPEC_FIELDS = ['version', 'network', 'resourceUrl', 'payer', 'issuedAt', 'transaction'] as const;

/** The extension's v1 receipt of what agora's payload states (its network already CAIP-2). */
export function specReceiptOf(p: AnyAgoraReceiptPayload): ReceiptPayload {
  const { network, resourceUrl, payer, issuedAt, transaction } = p;
  return { version: 1, network, resourceUrl, payer, issuedAt, transaction };
}

/** Whether an untrusted value is exactly an extension v1 receipt payload stating what agora's states. */
export function isSpecReceiptOf(v: unknown, p: AnyAgoraReceiptPayload): v is ReceiptPayload {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  const spec = specReceiptOf(p) as unknown as Record<string, unknown>;
  return Object.keys(r).length === SPEC_FIELDS.length && SPEC_FIELDS.every((f) => r[f] === spec[f]);
}

/** A hash standing for nothing delivered (a pending settlement's receipt). */
export const NOTHING_DELIVERED = `0x${'00'.repeat(32)}`;

/** Whether an untrusted value has the shape of agora's receipt payload (an offer, or another issuer's v1 receipt, has not). */
export function isAgoraReceiptPayload(v: unknown): v is AnyAgoraReceiptPayload {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  if (!VERIFIED_VERSIONS.has(p.version as number) || !Number.isSafeInteger(p.issuedAt)) return false;
  const committed = (p.version as number) >= 4;
  // Exactly the signed fields of its version: an EIP-712 signature covers only its type's, so nothing else may ride along.
  const fields = committed ? RECEIPT_FIELDS.current : RECEIPT_FIELDS.v3;
  const keys = Object.keys(p);
  if (keys.length !== fields.size || !keys.every((k) => fields.has(k))) return false;
  for (const f of ['network', 'resourceUrl', 'payer', 'transaction']) if (typeof p[f] !== 'string') return false;
  for (const [f, t] of Object.entries(AGORA_FIELDS)) if (typeof p[f] !== t) return false;
  if (committed ? !HASH.test(p.requestCommitment as string) : typeof p.requestId !== 'string') return false;
  return HASH.test(p.inputHash as string) && HASH.test(p.contentHash as string);
}

/** Whether a verified receipt states `requestId` (4: its commitment, opened with the salt; null without it). */
export function statesRequestId(
  p: AnyAgoraReceiptPayload,
  requestId: string,
  saltHex: string | undefined,
): boolean | null {
  if (!('requestCommitment' in p)) return p.requestId === requestId;
  return saltHex === undefined ? null : requestCommitment(requestId, saltHex) === p.requestCommitment;
}
