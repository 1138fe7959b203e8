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
    if (!proof.wallet || !isWallet(proof.wallet))
      throw new AppException('UNAUTHORIZED', 'X-Client-Wallet must be the 0x address that signed');
    const parsed = parseAuthHeader(proof.signature, SIGNATURE_HEADER, 'any');
    assertFresh(parsed, this.clock.nowMs(), this.config.authSignatureWindowS, SIGNATURE_HEADER);
    if (parsed.action !== null || !sameWallet(parsed.subjectId, wallet) || !sameWallet(proof.wallet, wallet))
      throw new AppException(
        'FORBIDDEN',
        `${SIGNATURE_HEADER} must be signed over this wallet: agora-auth:<wallet>:<unix_ms>`,
      );
    const signer = recoverSigner(parsed);
    if (!signer || !sameWallet(signer, wallet))
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was not signed by this wallet`);
  }
}
