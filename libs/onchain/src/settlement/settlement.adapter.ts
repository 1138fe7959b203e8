import { SettlementMode } from '@app/config';
import { Queryable } from '@app/database';
import type { ChainSender } from '../chain/chain-sender';
import { VerifiedPayment } from '@app/x402';

/** The authorization a preflight's hold is for (PayerHolds). */
export type HeldPaymentRef = Pick<SettleRequest, 'chainId' | 'asset' | 'payer' | 'nonce'>;

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
  /** The payment row: given the hash of the transaction that carries it before broadcast. */
  paymentId?: string;
  /** The hash the payment row holds (the transaction bound to it before broadcast), looked at first by recovery. */
  txHash?: string | null;
}

export interface TransferRequest {
  /** The withdrawal or refund this transfer pays out (local mode derives its hash from it). */
  payoutId: string;
  to: string;
  amount: bigint;
  /** The transaction signed by an earlier attempt: decided from the chain, never signed twice while it can land. */
  chainTxId: string | null;
  /**
   * In the transaction that persists a newly signed transfer, before its broadcast: binds it to the
   * payout and answers whether the payout is still this sender's (its claim token). False: nothing is sent.
   */
  fence: (sql: Queryable, tx: { id: string; txHash: string; signedTx: string }) => Promise<boolean>;
}

export type TransferOutcome =
  | { kind: 'sent'; txHash: string }
  /** Mined and reverted: nothing moved, and the same transaction can never succeed. */
  | { kind: 'reverted'; txHash: string }
  /** Signed and not decided yet: it may still land, so the payout waits (never failed, never signed again). */
  | { kind: 'pending' }
  /** The claim was lost to another sender before anything was signed. */
  | { kind: 'fenced' };

/**
 * A settlement sent on chain whose outcome is not known yet: the transaction carrying it (`txHash`,
 * bound to the payment before broadcast) was not mined within the wait, or its receipt could not
 * be read. It may still land, so it is never reported failed and never doubled by a second one.
 */
export class SettlementUndecided extends Error {
  constructor(
    readonly txHash: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettlementUndecided';
  }
}

/**
 * Where money actually moves. One interface, three adapters chosen by SETTLEMENT_MODE:
 * `local` (no chain; deterministic hashes), `evm` (relayer calls transferWithAuthorization;
 * withdrawals are transfers from the platform wallet) and `facilitator` (x402 /verify, /settle).
 */
export abstract class SettlementAdapter {
  abstract readonly mode: SettlementMode;

  /**
   * Checks that need the chain or the facilitator (authorization unused, funds). evm: the funds less
   * what the payer's other calls in flight hold, and this call is held in turn (PayerHolds).
   */
  abstract preflight(payment: VerifiedPayment): Promise<void>;

  /**
   * The call held by a preflight is over for the balance: its settlement is recorded (the chain's
   * balance says it now) or failed, its run failed, or it did no paid work. Not awaited; a hold left
   * behind expires. Modes without holds: nothing.
   */
  releaseHold(payment: HeldPaymentRef): void {
    void payment;
  }

  /**
   * Moves the authorized USDC to the platform. The evm adapter persists the signed transaction
   * (and the payment's hash) before broadcast, so a crash after it is recovered from the chain.
   * Resolves with the hash of the transaction that moved the money; rejects with
   * SettlementUndecided when a transaction carrying it was sent and the chain has not decided it
   * (its outcome is unknown: not a failure), else with the failure.
   */
  abstract settle(payment: SettleRequest): Promise<{ txHash: string }>;

  /**
   * An adapter whose settlement has no outside effect (local) gives the hash it records, so the
   * settlement can be written in the same transaction as the charge. Others: null.
   */
  inlineTxHash(payment: SettleRequest): string | null {
    void payment;
    return null;
  }

  /** The on-chain sender of the hot wallet, when this mode has one (its recovery is swept). */
  chainSender(): ChainSender | null {
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
   * Whether `settlementOf`'s null means "unused" (the chain was asked). A facilitator without a chain
   * connection cannot tell: its payments are never released as "moved nothing" on its word.
   */
  get readsChain(): boolean {
    return true;
  }

  /** Sends `amount` to `to` from the platform wallet, fenced by the payout's claim (see TransferRequest). */
  abstract transfer(req: TransferRequest): Promise<TransferOutcome>;
}
