import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppException, Clock, isWallet, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { assertFresh, parseAuthHeader, recoverSigner } from './wallet-signature';

export const WALLET_HEADER = 'X-Agent-Wallet';
export const SIGNATURE_HEADER = 'X-Agent-Signature';

/** SHA-256 hex of no bytes: the body of a request sent without one. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Methods that only read: a message presented on one is recorded, never a change's credential again. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** The request a signature is presented with: its method, its path as sent (no query), its body's SHA-256 hex. */
export interface SignedRequest {
  method: string;
  path: string;
  /** SHA-256 hex of the exact body bytes received; absent when there was none (then EMPTY_SHA256). */
  bodySha256?: string;
}

/** Proof that the registered wallet of `agentId` signed this request's auth message. */
export interface WalletAuthContext {
  agentId: string;
  wallet: string;
  timestampMs: number;
  /**
   * Whether the request is a change (not GET or HEAD). Only such a context can be consumed, and
   * consuming refuses a message already used for a change or presented on a read.
   */
  forChange: boolean;
  /** Whether the message is the contract's unbound `agora-auth:<agent>:<ms>` (it names no request). */
  unbound: boolean;
  /** An unbound message presented on a change is spent when presented (`RecordUnboundSignature`). */
  spent?: boolean;
  /** Identity of the signed message (agent + timestamp), the unit of single use. */
  messageKey: string;
  expiresAt: Date;
}

export interface WalletAuthHeaders {
  wallet?: string;
  signature?: string;
}

/**
 * Wallet authentication (docs/architecture.md, "Wallet authentication"). Two messages are accepted:
 * - the contract's unbound `agora-auth:<agent>:<ms>`, for reads and for one change;
 * - the bound `agora-auth:<agent>:<ms>:<METHOD> <path>[:<body sha256>]`, for that request only.
 * Verification is pure. An unbound message is recorded when presented (`RecordUnboundSignature`): on a
 * read, so the same (agent, timestamp) can no longer authorize a change (headers seen on a read, in a
 * log, a proxy, a dashboard given read access, cannot move money or change the agent); on a change,
 * spent at once. A bound message's single use is recorded by `consume` inside the change's transaction.
 */
@Injectable()
export class WalletAuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly usedMessages: UsedAuthMessagesRepository,
  ) {}

  /** Step 1: headers present, well formed, fresh, and (when bound) signed for this request. Names the agent. */
  parse(
    headers: WalletAuthHeaders,
    request: SignedRequest,
  ): { agentId: string; claimedWallet: string; parsed: ReturnType<typeof parseAuthHeader>; forChange: boolean } {
    if (!headers.wallet && !headers.signature) {
      throw new AppException('UNAUTHORIZED', `${WALLET_HEADER} and ${SIGNATURE_HEADER} headers are required`);
    }
    if (!headers.wallet) throw new AppException('UNAUTHORIZED', `${WALLET_HEADER} header is required`);
    if (!isWallet(headers.wallet)) throw new AppException('UNAUTHORIZED', `${WALLET_HEADER} must be a 0x address`);
    const parsed = parseAuthHeader(headers.signature, SIGNATURE_HEADER);
    assertFresh(parsed, this.clock.nowMs(), this.config.authSignatureWindowS, SIGNATURE_HEADER);
    const method = request.method.toUpperCase();
    const action = `${method} ${request.path}`;
    if (parsed.action !== null && parsed.action !== action) {
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was signed for ${parsed.action}, not for ${action}`);
    }
    if (parsed.bodySha256 !== null && parsed.bodySha256 !== (request.bodySha256 ?? EMPTY_SHA256)) {
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was signed for another request body`);
    }
    return { agentId: parsed.subjectId, claimedWallet: headers.wallet, parsed, forChange: !READ_METHODS.has(method) };
  }

  /** Step 2: the claimed wallet is the agent's, and that wallet made the signature. */
  verify(step1: ReturnType<WalletAuthService['parse']>, registeredWallet: string): WalletAuthContext {
    if (!sameWallet(step1.claimedWallet, registeredWallet)) {
      throw new AppException('FORBIDDEN', `${WALLET_HEADER} is not the wallet registered for this agent`);
    }
    const signer = recoverSigner(step1.parsed);
    if (signer === null || !sameWallet(signer, registeredWallet)) {
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was not signed by the agent's wallet`);
    }
    return {
      agentId: step1.agentId,
      wallet: registeredWallet,
      timestampMs: step1.parsed.timestampMs,
      forChange: step1.forChange,
      unbound: step1.parsed.action === null,
      messageKey: `${step1.agentId}:${step1.parsed.timestampMs}`,
      expiresAt: new Date(step1.parsed.timestampMs + this.config.authSignatureWindowS * 1000),
    };
  }

  /**
   * A read made with a console session signed in as an agent (docs/console.md): the session's
   * wallet must still be the agent's. It never authorizes a change (`forChange` is false, so
   * `consume` refuses it): a change needs the wallet's signature of that very request.
   */
  fromSession(
    session: { id: string; wallet: string; agentId: string | null; expiresAt: Date },
    registeredWallet: string,
  ): WalletAuthContext {
    if (!session.agentId)
      throw new AppException('FORBIDDEN', 'This console session reads as a paying wallet, not as an agent');
    if (!sameWallet(session.wallet, registeredWallet))
      throw new AppException('FORBIDDEN', 'This console session was signed by a wallet that is not the agent’s');
    return {
      agentId: session.agentId,
      wallet: registeredWallet,
      timestampMs: this.clock.nowMs(),
      forChange: false,
      unbound: false,
      messageKey: `session:${session.id}`,
      expiresAt: session.expiresAt,
    };
  }

  /**
   * Marks the signed message used. Call inside the transaction that makes the change, so
   * the change and the mark commit together; a second use (even concurrent) is refused.
   */
  async consume(manager: EntityManager, auth: WalletAuthContext): Promise<void> {
    if (!auth.forChange) throw new AppException('UNAUTHORIZED', `${SIGNATURE_HEADER} is not a credential for a change`);
    if (auth.spent) return;
    if (!(await this.usedMessages.insert(manager, auth))) {
      throw new AppException(
        'UNAUTHORIZED',
        `${SIGNATURE_HEADER} has already been used for a change or presented on a read; sign a new message`,
      );
    }
  }
}
