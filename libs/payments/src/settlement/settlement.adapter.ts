import { SettlementMode } from '@app/config';
import { VerifiedPayment } from '../x402/x402.types';

/** The authorization to settle, as stored in `payments`. */
export interface SettleRequest {
  x402Version: number;
  network: string;
  chainId: number;
  asset: string;
  payer: string;
  payTo: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: string;
  signature: string;
}

export interface TransferRequest {
  /** The withdrawal or refund this transfer pays out (local mode derives its hash from it). */
  payoutId: string;
  to: string;
  amount: bigint;
  /** A transfer signed in an earlier attempt: re-broadcast it, never sign a different one. */
  signedTx: string | null;
}

/**
 * Where money actually moves. One interface, three adapters chosen by SETTLEMENT_MODE:
 * `local` (no chain; deterministic hashes), `evm` (relayer calls transferWithAuthorization;
 * withdrawals are transfers from the platform wallet) and `facilitator` (x402 /verify, /settle).
 */
export abstract class SettlementAdapter {
  abstract readonly mode: SettlementMode;

  /** Checks that need the chain or the facilitator (authorization unused, funds). */
  abstract preflight(payment: VerifiedPayment): Promise<void>;

  /**
   * Moves the authorized USDC to the platform. `persist(txHash)` is awaited before broadcast,
   * so a crash after it can be recovered from the chain. Resolves with the transaction hash.
   */
  abstract settle(payment: SettleRequest, persist: (txHash: string) => Promise<void>): Promise<{ txHash: string }>;

  /**
   * An adapter whose settlement has no outside effect (local) gives the hash it records, so the
   * settlement can be written in the same transaction as the charge. Others: null.
   */
  inlineTxHash(payment: SettleRequest): string | null {
    void payment;
    return null;
  }

  /** Whether an authorization was already used on chain (recovery after a crash mid-settle). */
  abstract authorizationUsed(payment: SettleRequest): Promise<boolean>;

  /**
   * The hash of the transaction that used this authorization on chain, or null (unused, or no
   * way to ask): how a settlement whose outcome was lost in a crash is recovered exactly once.
   */
  abstract settlementOf(payment: SettleRequest): Promise<string | null>;

  /**
   * Sends `amount` to `to` from the platform wallet. `persist(signedTx, txHash)` is awaited
   * before broadcast, so a crash after it re-sends the same transaction.
   */
  abstract transfer(req: TransferRequest, persist: (signedTx: string, txHash: string) => Promise<void>): Promise<{ txHash: string }>;
}

/** The chain executed the transfer and it reverted: nothing moved, and retrying the same transaction cannot help. */
export class TransferRevertedError extends Error {
  constructor(readonly txHash: string) {
    super(`transaction ${txHash} reverted`);
    this.name = 'TransferRevertedError';
  }
}
