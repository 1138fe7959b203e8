import { sha256, toUtf8Bytes, Wallet } from 'ethers';

/** What the SDK needs of a wallet: an ethers `Wallet` (or any ethers Signer with these three) fits. */
export interface AgoraSigner {
  readonly address: string;
  signMessage(message: string): Promise<string>;
  signTypedData(
    domain: Record<string, unknown>,
    types: Record<string, { name: string; type: string }[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
}

export function toSigner(wallet: AgoraSigner | string): AgoraSigner {
  return typeof wallet === 'string' ? new Wallet(wallet) : wallet;
}

export type AgentAuthHeaders = { 'X-Agent-Wallet': string; 'X-Agent-Signature': string };

/**
 * The request a wallet signature is for: `"<METHOD> <path>"`, the API path without the query (e.g.
 * `POST /api/v1/payments/withdraw`), optionally followed by `:<sha256 hex of the exact body bytes>`.
 */
export type SignedAction = `${'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'} /api/v1/${string}`;

/** Lowercase hex SHA-256 of `JSON.stringify(body)`, the bytes the SDK sends, for a bound message. */
export function bodyHash(body: unknown): string {
  return sha256(toUtf8Bytes(JSON.stringify(body))).slice(2);
}

/**
 * Signs wallet-auth headers (`agora-auth:<id>:<unix ms>[:<METHOD> <path>[:<body sha256>]]:sig:<EIP-191
 * signature>`). Agent headers always name the request they are for (the bound form): such a message
 * authorizes that request only, so a signature seen anywhere else can never move money. A signature is single use for
 * changes, so two signed in the same millisecond would collide: timestamps are kept strictly
 * increasing per signer.
 */
export class WalletAuthSigner {
  private last = 0;

  constructor(readonly signer: AgoraSigner) {}

  async sign(subjectId: string, action?: SignedAction): Promise<string> {
    this.last = Math.max(Date.now(), this.last + 1);
    const message = `agora-auth:${subjectId}:${this.last}${action ? `:${action}` : ''}`;
    return `${message}:sig:${await this.signer.signMessage(message)}`;
  }

  /** X-Agent-Wallet + X-Agent-Signature of agent `agentId` (this wallet must own it) for the request `action`. */
  async agentHeaders(agentId: string, action: SignedAction): Promise<AgentAuthHeaders> {
    return { 'X-Agent-Wallet': this.signer.address, 'X-Agent-Signature': await this.sign(agentId, action) };
  }

  /**
   * X-Client-Wallet + X-Client-Signature over this wallet (`agora-auth:<wallet>:<unix ms>`): the payer's read
   * of what it paid for (its outputs without the payment header, its payments' request ids, its executions).
   */
  payerReadHeaders(): Promise<Record<string, string>> {
    return this.clientHeaders(this.signer.address);
  }

  /** X-Client-Wallet + X-Client-Signature: proof of being the payer of transaction `transactionId`. */
  async clientHeaders(transactionId: string): Promise<Record<string, string>> {
    return { 'X-Client-Wallet': this.signer.address, 'X-Client-Signature': await this.sign(transactionId) };
  }
}
