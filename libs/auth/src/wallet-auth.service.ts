import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppException, Clock, isWallet, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { assertFresh, parseAuthHeader, recoverSigner } from './wallet-signature';

export const WALLET_HEADER = 'X-Agent-Wallet';
export const SIGNATURE_HEADER = 'X-Agent-Signature';

/** Methods that only read: the only ones an unbound message (no action) is accepted for. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** The request a signature is presented with: its method and its path as sent, without the query. */
export interface SignedRequest {
  method: string;
  path: string;
}

/** Proof that the registered wallet of `agentId` signed this request's auth message. */
export interface WalletAuthContext {
  agentId: string;
  wallet: string;
  timestampMs: number;
  /**
   * Whether the message was signed for this very change (`<METHOD> <path>` of a state-changing
   * request). Only such a message can be consumed: one seen on a read never authorizes a change.
   */
  forChange: boolean;
  /** Identity of the signed message (agent + timestamp), the unit of single use. */
  messageKey: string;
  expiresAt: Date;
}

export interface WalletAuthHeaders {
  wallet?: string;
  signature?: string;
}

/**
 * Wallet authentication (resolutions §3). Verification is pure; single use of a signed
 * message for a state change is recorded with `consume` inside the caller's transaction.
 * A change needs a message that names it (`agora-auth:<agent>:<ms>:<METHOD> <path>`); the
 * unbound `agora-auth:<agent>:<ms>` is accepted for reads only, so headers seen on a read (in a
 * log, a proxy, a dashboard given read access) cannot move money or change the agent.
 */
@Injectable()
export class WalletAuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly usedMessages: UsedAuthMessagesRepository,
  ) {}

  /** Step 1: headers present, well formed and signed for this request. Returns the agent id the signature names. */
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
    const forChange = !READ_METHODS.has(method);
    if (parsed.action === null && forChange) {
      throw new AppException(
        'UNAUTHORIZED',
        `${SIGNATURE_HEADER} must be signed for this change: "agora-auth:<agent_id>:<unix_ms>:${action}" (a message without the request is accepted for reads only)`,
      );
    }
    if (parsed.action !== null && parsed.action !== action) {
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was signed for ${parsed.action}, not for ${action}`);
    }
    return { agentId: parsed.subjectId, claimedWallet: headers.wallet, parsed, forChange };
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
      messageKey: `session:${session.id}`,
      expiresAt: session.expiresAt,
    };
  }

  /**
   * Marks the signed message used. Call inside the transaction that makes the change, so
   * the change and the mark commit together; a second use (even concurrent) is refused.
   */
  async consume(manager: EntityManager, auth: WalletAuthContext): Promise<void> {
    if (!auth.forChange)
      throw new AppException(
        'UNAUTHORIZED',
        `${SIGNATURE_HEADER} was not signed for this change; sign one that names it`,
      );
    if (!(await this.usedMessages.insert(manager, auth))) {
      throw new AppException(
        'UNAUTHORIZED',
        `${SIGNATURE_HEADER} has already been used for a change; sign a new message`,
      );
    }
  }
}
