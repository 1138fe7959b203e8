import { Queryable } from '@app/database';
import type { AccountRef } from '@app/ledger';
import type { SettlementReceipt } from '@app/x402';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import type { RefundEntity } from '../entities/refund.entity';

/**
 * What pays for an execution, as admission yields it and the runner and charger consume it,
 * without knowing which kind it is: a verified x402 payment (`X402Funding`), or a chain budget's
 * reservation (`ChainFunding`). Writes it makes go into the caller's transaction.
 */
export interface Funding {
  /** The client: who pays, and who is refunded. */
  readonly payer: string;
  /** The row that pays (x402: the payments row; chain: the chain). */
  readonly id: string;
  /** The x402 payment a charge records (null when a chain pays). */
  readonly paymentId: string | null;
  /** Who asked for the run, as the transaction records it (x402: the payer; chain: the calling agent). */
  readonly requestingAgent: string;
  /** Where a charge's money comes from when not from an arriving payment (chain: its budget, which pays only the cost). */
  readonly chargeSource?: { from: AccountRef };
  /** Hash of the proof whose holder may read the output and retry (x402: the payment header). */
  readonly proofHash: string;
  /** Whether settling moves money outside Postgres: then it is recorded first and done before the charge. */
  readonly settlesOutside: boolean;
  /** For a run first written now (nothing was written before it ran): the reservation, beside the execution. */
  reserve(sql: Queryable, executionId: string): Promise<unknown>;
  /** In the charge's transaction: the settlement, or the link to the settlement done outside. `fresh`: nothing was written before. */
  settleWrites(sql: Queryable, executionId: string, fresh: boolean, charge: ChargeFacts): Promise<unknown>;
  /** In the transaction that records a failed run: what the funding gives back (chain: the reservation returns to the budget). */
  failWrites(
    sql: Queryable,
    executionId: string,
    failure: { executionTimeMs: number; completedAt: Date },
  ): Promise<unknown>;
  /** After the charge or the failure committed (chain: the chain's end, once nothing runs). */
  afterEnd(): Promise<void>;
  /**
   * Settles outside Postgres (settlesOutside), recorded before it is sent and recoverable. Answers null once
   * settled, else what stands: `pending` when the outcome is not known yet (sent on chain and undecided: the
   * worker records it), `final` for an authorization that expired unused (never retried), else failed and retried.
   */
  settleOutside(): Promise<SettleFailure | null>;
  /** The settlement as the payer sees it (once settled). */
  receipt(): { txHash: string | null; receipt: SettlementReceipt | null };
  /** What a signed receipt states of the payment (null when a chain pays): its settlement hash as far as known. */
  paymentFacts(): PaymentFacts | null;
  /** The request holding it did no paid work (`err`: why): any claim it holds goes back. */
  giveBack(err: unknown): void;
}

/** A settled execution as its payer sees it: the settlement's hash and receipt, the signed receipt, and the refund if there is one. */
export interface PaidSettlement {
  txHash: string | null;
  receipt: SettlementReceipt | null;
  /** The `offer-receipt` receipt kept with the execution (x402 payments charged since receipts exist). */
  signed?: SignedReceipt | null;
  refund: RefundEntity | null;
}

/** An x402 payment as its receipt states it. */
export interface PaymentFacts {
  /** As the payment's protocol version names it (v1 name, v2 CAIP-2). */
  network: string;
  payer: string;
  /** The settlement transaction's hash ('' while unknown). */
  transaction: string;
  /** What the authorization carries (micro-USDC). */
  amount: bigint;
}

/** A settlement outside Postgres that did not complete (SETTLEMENT_FAILED): undecided, final, or retried on its schedule. */
export interface SettleFailure {
  /** The authorization expired unused: nothing moved, never retried. */
  final: boolean;
  /** Not a failure: sent (or being settled elsewhere) and not decided yet; the worker records the outcome. */
  pending: boolean;
  /** While pending: the hash of the transaction carrying it, once one was sent. */
  txHash?: string | null;
}

/** What a charge records, for the funding's own rows. */
export interface ChargeFacts {
  transactionId: string;
  /** Platform fee + agent fee charged. */
  cost: bigint;
  executionTimeMs: number;
  completedAt: Date;
}
