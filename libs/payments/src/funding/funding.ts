import { Queryable } from '@app/database';
import type { SettlementReceipt } from '@app/x402';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import type { RefundEntity } from '../entities/refund.entity';
import type { ExecutionCharge } from '../usecases/record-charge/execution-charge';
import type { RecordedCharge } from '../usecases/record-charge/record-charge.usecase';

/**
 * What pays for an execution, as admission yields it and the runner and charger consume it,
 * without knowing which kind it is: a verified x402 payment (`X402Funding`), or a chain budget's
 * reservation (`ChainFunding`). Writes it makes go into the caller's transaction.
 */
export interface Funding {
  /** The client: who pays, and who is refunded. */
  readonly payer: string;
  /**
   * The agent whose call this run was (a chain sub-call an agent made; none for a client's call): the
   * outcome is its doing, so reputation weighs its owner's standing, not the client's (issue 52, M2).
   */
  readonly callingAgent?: string;
  /** The row that pays (x402: the payments row; chain: the chain). */
  readonly id: string;
  /** Whether a run charged less than was authorized refunds the rest (x402; a chain's reservation returns to its budget). */
  readonly refundsUnused: boolean;
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
  /**
   * In the charge's transaction, after `settleWrites`: the run's charge in money (RecordCharge: the
   * posting, the agent's hold, the refund owed), with the funding's payer, payment, requesting agent
   * and source (x402: the arriving payment; chain: its budget, which pays only the cost).
   */
  recordCharge(sql: Queryable, charge: RunCharge): Promise<RecordedCharge>;
  /** After the charge (`charged`: its hold released or scheduled, its refund queued) or the failure committed (chain: the chain's end, once nothing runs). */
  afterEnd(charged?: RecordedCharge): Promise<void>;
  /**
   * Settles outside Postgres (settlesOutside), recorded before it is sent and recoverable. Answers null once
   * settled, else what stands: `pending` when the outcome is not known yet (sent on chain and undecided: the
   * worker records it), `final` for an authorization that expired unused (never retried), else failed and retried.
   */
  settleOutside(): Promise<SettleFailure | null>;
  /** The settlement as the payer sees it (once settled). */
  receipt(): { txHash: string | null; receipt: SettlementReceipt | null };
  /**
   * The signed `offer-receipt` receipt of what was delivered for this payment (null when a chain
   * pays): the payment's network, payer, settlement transaction as far as known, and amount.
   * `settlementPending`: nothing delivered or charged yet (fees 0, content hash zero).
   */
  signReceipt(delivered: Delivery, settlementPending: boolean): Promise<SignedReceipt | null>;
  /** The request holding it did no paid work (`err`: why): any claim it holds goes back. */
  giveBack(err: unknown): void;
}

/** A settled execution as its payer sees it: the settlement's hash and receipt, the signed receipt, and the refund if there is one. */
export interface PaidSettlement {
  txHash: string | null;
  receipt: SettlementReceipt | null;
  /** The `offer-receipt` receipt kept with the execution (x402 payments charged since receipts exist). */
  signed?: SignedReceipt | null;
  /** The salt its hashes are keyed with (version 3 receipts): shown beside it, to the payer only. */
  receiptSalt?: string | null;
  refund: RefundEntity | null;
}

/** What a receipt states was delivered for a payment; the funding adds the payment. */
export interface Delivery {
  /** The paid route's URL. */
  resourceUrl: string;
  requestId: string;
  agentId: string;
  capabilityId: string;
  agentFee: bigint;
  platformFee: bigint;
  /** Stated by their hashes (RFC 8785 canonical JSON, HMAC-SHA256 keyed with `salt`). */
  input: unknown;
  output: unknown;
  /** The execution's receipt salt (64 hex, ReceiptSalts): given to the payer only. */
  salt: string;
}

/** A run's charge as the charger states it; the funding adds who pays, the payment and the money's source. */
export type RunCharge = Omit<ExecutionCharge, 'paymentId' | 'payerWallet' | 'requestingAgent' | 'source'>;

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
