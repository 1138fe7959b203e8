import { Injectable } from '@nestjs/common';
import { AppException, Clock, isWallet, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { assertFresh, parseAuthHeader, recoverSigner, WalletAuthContext } from '@app/auth';
import { DisputedTransaction } from '@app/payments';
import { PresentedPayment, X402Service } from '@app/x402';
import type { PayerProofKind } from '../../entities/dispute.entity';

/** What a filer presents as proof of being the transaction's payer (resolutions §3). */
export interface PayerProof {
  /** The original x402 payment header of the execute request. */
  payment: PresentedPayment | null;
  /** `X-Client-Wallet` and `X-Client-Signature` (`agora-auth:<transaction_id>:<unix_ms>:sig:<signature>`). */
  wallet?: string;
  signature?: string;
}

/** A proof that checked: its kind, whether it proves the payer (see `verify`), and the signed message to consume. */
export interface VerifiedProof {
  kind: PayerProofKind;
  verified: boolean;
  signed: WalletAuthContext | null;
}

export const CLIENT_WALLET_HEADER = 'X-Client-Wallet';
export const CLIENT_SIGNATURE_HEADER = 'X-Client-Signature';

/**
 * Checks a payer's proof. Missing or unreadable: UNAUTHORIZED (401); a proof that reads but is not
 * this transaction's payer (another payment, another wallet, a signature for another transaction):
 * FORBIDDEN (403). A signature is single use: `consume` marks it inside the filing's transaction.
 */
@Injectable()
export class PayerProofCheck {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Before any read: some proof is there at all. */
  assertPresent(proof: PayerProof): void {
    if (!proof.payment && !proof.wallet && !proof.signature) {
      throw new AppException(
        'UNAUTHORIZED',
        `Filing a dispute needs proof of payment: the original payment header, or ${CLIENT_WALLET_HEADER} and ${CLIENT_SIGNATURE_HEADER} signed over the transaction id`,
      );
    }
  }

  /**
   * The proof is the payer's for this transaction: the signed message to consume, or a payment header. A header
   * proves the payer only where headers stay private (local settlement): on a public chain (evm, facilitator)
   * anyone rebuilds it from the settlement's calldata, so a filing it alone proves is unverified.
   */
  verify(proof: PayerProof, tx: DisputedTransaction): VerifiedProof {
    if (proof.payment) {
      if (tx.paymentHeaderHash === null || X402Service.hashHeader(proof.payment.value) !== tx.paymentHeaderHash) {
        throw new AppException(
          'FORBIDDEN',
          'This is not the payment of this transaction; only its payer may dispute it',
        );
      }
      return { kind: 'payment_header', verified: this.config.settlementMode === 'local', signed: null };
    }
    if (!proof.wallet)
      throw new AppException(
        'UNAUTHORIZED',
        `${CLIENT_WALLET_HEADER} header is required with ${CLIENT_SIGNATURE_HEADER}`,
      );
    if (!isWallet(proof.wallet)) throw new AppException('UNAUTHORIZED', `${CLIENT_WALLET_HEADER} must be a 0x address`);
    const parsed = parseAuthHeader(proof.signature, CLIENT_SIGNATURE_HEADER, 'any');
    assertFresh(parsed, this.clock.nowMs(), this.config.authSignatureWindowS, CLIENT_SIGNATURE_HEADER);
    if (parsed.action !== null)
      throw new AppException(
        'UNAUTHORIZED',
        `${CLIENT_SIGNATURE_HEADER} must be agora-auth:<transaction_id>:<unix_ms>:sig:<0x signature>`,
      );
    if (parsed.subjectId !== tx.id)
      throw new AppException('FORBIDDEN', `${CLIENT_SIGNATURE_HEADER} was made for another transaction`);
    if (!sameWallet(proof.wallet, tx.payerWallet))
      throw new AppException('FORBIDDEN', `${CLIENT_WALLET_HEADER} is not the payer of this transaction`);
    const signer = recoverSigner(parsed);
    if (signer === null || !sameWallet(signer, proof.wallet))
      throw new AppException('FORBIDDEN', `${CLIENT_SIGNATURE_HEADER} was not signed by ${CLIENT_WALLET_HEADER}`);
    const signed: WalletAuthContext = {
      agentId: tx.agentId,
      wallet: tx.payerWallet,
      timestampMs: parsed.timestampMs,
      // The message names the transaction, and filing its dispute is the only thing it is for.
      forChange: true,
      unbound: true,
      messageKey: `client:${tx.id}:${parsed.timestampMs}`,
      expiresAt: new Date(parsed.timestampMs + this.config.authSignatureWindowS * 1000),
    };
    return { kind: 'signature', verified: true, signed };
  }
}
