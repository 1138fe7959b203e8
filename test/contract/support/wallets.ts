/*
 * Contract test harness: wallets and the signatures the contract documents (resolutions §2 and §3, x402.md).
 * Imports only node built-ins and ethers.
 */
import { createHash, randomBytes } from 'node:crypto';
import { getAddress, Wallet } from 'ethers';

export function newWallet(): Wallet {
  return Wallet.createRandom() as unknown as Wallet;
}

let lastTimestamp = 0;
/**
 * Date.now(), but never the same value twice in this process: a state change accepts a signed message once,
 * so two calls in one millisecond must not sign the same text by accident.
 */
export function freshTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/** The spec's unbound X-Agent-Signature: `agora-auth:<agent_id>:<ms>:sig:<EIP-191 signature>`. */
export async function agentSignature(
  wallet: Wallet,
  agentId: string,
  timestampMs: number = freshTimestamp(),
): Promise<string> {
  const message = `agora-auth:${agentId}:${timestampMs}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

/**
 * The request-bound form (resolutions §3): the signed text is
 * `agora-auth:<agent_id>:<ms>:<METHOD> <path>[:<sha256 hex of the body bytes>]`, path without the query.
 */
export async function boundAgentSignature(
  wallet: Wallet,
  agentId: string,
  method: string,
  path: string,
  opts: { body?: string; timestampMs?: number } = {},
): Promise<string> {
  const ts = opts.timestampMs ?? freshTimestamp();
  const bodyPart = opts.body !== undefined ? `:${createHash('sha256').update(opts.body).digest('hex')}` : '';
  const message = `agora-auth:${agentId}:${ts}:${method.toUpperCase()} ${path.split('?')[0]}${bodyPart}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

/** X-Agent-Wallet + X-Agent-Signature (spec form) for a guarded call. */
export async function agentHeaders(wallet: Wallet, agentId: string, ts?: number): Promise<Record<string, string>> {
  return { 'X-Agent-Wallet': wallet.address, 'X-Agent-Signature': await agentSignature(wallet, agentId, ts) };
}

/** X-Client-Signature: `agora-auth:<transaction_id>:<ms>:sig:<signature>` (resolutions §3, filing a dispute). */
export async function clientSignature(
  wallet: Wallet,
  transactionId: string,
  timestampMs: number = freshTimestamp(),
): Promise<string> {
  const message = `agora-auth:${transactionId}:${timestampMs}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

/** X-Client-Wallet + X-Client-Signature for filing a dispute. */
export async function clientHeaders(wallet: Wallet, transactionId: string): Promise<Record<string, string>> {
  return { 'X-Client-Wallet': wallet.address, 'X-Client-Signature': await clientSignature(wallet, transactionId) };
}

/** One `accepts[]` entry of a 402 body (x402 v1 PaymentRequirements). */
export interface Accept {
  scheme: string;
  network: string;
  maxAmountRequired: string;
  resource: string;
  description?: string;
  mimeType?: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  outputSchema?: unknown;
  extra: { name: string; version: string };
}

/** v1 network names and CAIP-2 ids to chain ids (x402.md §1.3, §2.2). */
export const CHAIN_IDS: Record<string, number> = {
  base: 8453,
  'base-sepolia': 84532,
  ethereum: 1,
  'eip155:8453': 8453,
  'eip155:84532': 84532,
  'eip155:1': 1,
};

export const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

export interface PaymentOptions {
  /** authorization.value (default: accept.maxAmountRequired, or `amount` of a v2 entry). */
  value?: string | bigint;
  /** authorization.to (default: accept.payTo). */
  to?: string;
  validAfter?: number | bigint;
  /** Default now + 300 s. */
  validBefore?: number | bigint;
  nonce?: string;
  /** EIP-712 domain name (default accept.extra.name): a wrong one makes a signature that recovers someone else. */
  domainName?: string;
}

export interface SignedAuthorization {
  signature: string;
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
}

/** The EIP-3009 TransferWithAuthorization signed under the USDC domain of `accept` (x402.md §2.1). */
export async function signAuthorization(
  wallet: Wallet,
  accept: { network: string; asset: string; payTo: string; extra: { name: string; version: string } },
  value: string,
  opts: PaymentOptions = {},
): Promise<SignedAuthorization> {
  const chainId = CHAIN_IDS[accept.network];
  if (chainId === undefined) throw new Error(`unknown network ${accept.network}`);
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: wallet.address,
    to: opts.to ?? accept.payTo,
    value: String(opts.value ?? value),
    validAfter: String(opts.validAfter ?? 0),
    validBefore: String(opts.validBefore ?? now + 300),
    nonce: opts.nonce ?? `0x${randomBytes(32).toString('hex')}`,
  };
  const domain = {
    name: opts.domainName ?? accept.extra.name,
    version: accept.extra.version,
    chainId,
    verifyingContract: getAddress(accept.asset),
  };
  const signature = await wallet.signTypedData(domain, TRANSFER_WITH_AUTHORIZATION, authorization);
  return { signature, authorization };
}

/** The x402 v1 `X-PAYMENT` value: standard base64 of `{x402Version:1, scheme, network, payload}` (x402.md §1.2). */
export async function paymentHeader(wallet: Wallet, accept: Accept, opts: PaymentOptions = {}): Promise<string> {
  const payload = await signAuthorization(wallet, accept, accept.maxAmountRequired, opts);
  const body = { x402Version: 1, scheme: accept.scheme, network: accept.network, payload };
  return Buffer.from(JSON.stringify(body)).toString('base64');
}

/** One `accepts[]` entry of a v2 PAYMENT-REQUIRED header (x402.md §4). */
export interface AcceptV2 {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

/** Decodes a v2 `PAYMENT-REQUIRED` header (base64 JSON). */
export function decodePaymentRequired(header: string): {
  x402Version: number;
  resource?: { url: string; description?: string; mimeType?: string };
  accepts: AcceptV2[];
  [key: string]: unknown;
} {
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
}

/** The x402 v2 `PAYMENT-SIGNATURE` value: `{x402Version:2, resource, accepted, payload}` (x402.md §4). */
export async function paymentHeaderV2(
  wallet: Wallet,
  accepted: AcceptV2,
  opts: PaymentOptions & { resource?: unknown; extensions?: Record<string, unknown> } = {},
): Promise<string> {
  const payload = await signAuthorization(wallet, accepted, accepted.amount, opts);
  const body = {
    x402Version: 2,
    ...(opts.resource !== undefined ? { resource: opts.resource } : {}),
    accepted,
    payload,
    ...(opts.extensions ? { extensions: opts.extensions } : {}),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64');
}

/** Decodes X-PAYMENT-RESPONSE / PAYMENT-RESPONSE (base64 JSON SettlementResponse). */
export function decodePaymentResponse(header: string | null): Record<string, unknown> {
  if (!header) throw new Error('no payment response header');
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The malleable twin of a 65-byte signature: s' = n - s (a high s) and the other v. Recovers the same address. */
export function highSTwin(signature: string): string {
  const hex = signature.replace(/^0x/, '');
  const r = hex.slice(0, 64);
  const s = BigInt(`0x${hex.slice(64, 128)}`);
  const v = parseInt(hex.slice(128, 130), 16);
  const twinS = (SECP256K1_N - s).toString(16).padStart(64, '0');
  const twinV = (v === 27 ? 28 : v === 28 ? 27 : v ^ 1).toString(16).padStart(2, '0');
  return `0x${r}${twinS}${twinV}`;
}
