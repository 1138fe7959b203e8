import { Injectable } from '@nestjs/common';
import { AppException, Clock, isWallet, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { assertFresh, parseAuthHeader, recoverSigner } from '../wallet-signature';
import { ConsoleSessions } from './console-sessions.service';

/** How a payer proves a wallet is theirs for a read: the console's session, or a signature. */
export interface PayerReadProof {
  sessionToken?: string;
  /** `X-Client-Wallet` and `X-Client-Signature` (`agora-auth:<wallet>:<unix_ms>:sig:<signature>`). */
  wallet?: string;
  signature?: string;
}

const SIGNATURE_HEADER = 'X-Client-Signature';

/**
 * A paying wallet's own reads (its executions): with a console session signed in by that wallet,
 * or with the wallet's signature over `agora-auth:<wallet>:<unix_ms>` (fresh within the auth window).
 * None: UNAUTHORIZED; another wallet's: FORBIDDEN.
 */
@Injectable()
export class PayerRead {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether this request reads as `wallet`, the payer of what it reads (an execution's output, a payment's
   * request id). Signature headers must prove their own wallet (X-Client-Wallet signed
   * `agora-auth:<that wallet>:<unix_ms>`, fresh): a malformed or stale one is 401, a forged one 403; a valid
   * one of another wallet reads as any visitor (false), as another payment header does. A console session
   * reads as the payer only when signed in by that wallet as a paying wallet, any other (or an expired one)
   * as a visitor: a console user browsing another's execution keeps the public view. No proof: false.
   */
  async reads(wallet: string, proof: PayerReadProof): Promise<boolean> {
    if (proof.signature || proof.wallet) return sameWallet(this.signedBy(proof), wallet);
    if (!proof.sessionToken) return false;
    const session = await this.sessions.current(proof.sessionToken).catch((err: unknown) => {
      if (err instanceof AppException) return null; // expired or revoked: a visitor
      throw err;
    });
    return session !== null && session.agentId === null && sameWallet(session.wallet, wallet);
  }

  async verify(wallet: string, proof: PayerReadProof): Promise<void> {
    if (proof.sessionToken && !proof.signature) {
      const session = await this.sessions.current(proof.sessionToken);
      if (session.agentId !== null)
        throw new AppException('FORBIDDEN', 'This session reads as an agent; sign in as the paying wallet');
      if (!sameWallet(session.wallet, wallet))
        throw new AppException('FORBIDDEN', 'This session was signed in by another wallet');
      return;
    }
    if (!proof.signature)
      throw new AppException(
        'UNAUTHORIZED',
        `Reading a wallet's executions takes its console session, or X-Client-Wallet and ${SIGNATURE_HEADER}`,
      );
    if (!sameWallet(this.signedBy(proof), wallet))
      throw new AppException(
        'FORBIDDEN',
        `${SIGNATURE_HEADER} must be signed over this wallet: agora-auth:<wallet>:<unix_ms>`,
      );
  }

  /** The wallet the signature headers prove: X-Client-Wallet, having signed `agora-auth:<itself>:<unix_ms>` freshly. */
  private signedBy(proof: PayerReadProof): string {
    if (!proof.signature) throw new AppException('UNAUTHORIZED', `${SIGNATURE_HEADER} header is required`);
    if (!proof.wallet || !isWallet(proof.wallet))
      throw new AppException('UNAUTHORIZED', 'X-Client-Wallet must be the 0x address that signed');
    const parsed = parseAuthHeader(proof.signature, SIGNATURE_HEADER, 'any');
    assertFresh(parsed, this.clock.nowMs(), this.config.authSignatureWindowS, SIGNATURE_HEADER);
    if (parsed.action !== null || !sameWallet(parsed.subjectId, proof.wallet))
      throw new AppException(
        'FORBIDDEN',
        `${SIGNATURE_HEADER} must be signed over this wallet: agora-auth:<wallet>:<unix_ms>`,
      );
    const signer = recoverSigner(parsed);
    if (!signer || !sameWallet(signer, proof.wallet))
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was not signed by this wallet`);
    return proof.wallet;
  }
}
