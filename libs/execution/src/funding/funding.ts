import { Queryable } from '@app/database';
import type { SettlementReceipt } from '@app/payments';

/**
 * What pays for an execution, as admission yields it and the runner and charger consume it,
 * without knowing which kind it is: today a verified x402 payment (`X402Funding`); next, a chain
 * budget reservation. Writes it makes go into the caller's transaction.
 */
export interface Funding {
  /** The client: who pays, and who is refunded. */
  readonly payer: string;
  /** The row that pays (x402: the payments row). */
  readonly id: string;
  /** Hash of the proof whose holder may read the output and retry (x402: the payment header). */
  readonly proofHash: string;
  /** Whether settling moves money outside Postgres: then it is recorded first and done before the charge. */
  readonly settlesOutside: boolean;
  /** For a run first written now (nothing was written before it ran): the reservation, beside the execution. */
  reserve(sql: Queryable, executionId: string): Promise<unknown>;
  /** In the charge's transaction: the settlement, or the link to the settlement done outside. `fresh`: nothing was written before. */
  settleWrites(sql: Queryable, executionId: string, fresh: boolean): Promise<unknown>;
  /** Settles outside Postgres (settlesOutside), recorded before it is sent and recoverable; throws SETTLEMENT_FAILED. */
  settleOutside(): Promise<void>;
  /** The settlement as the payer sees it (once settled). */
  receipt(): { txHash: string | null; receipt: SettlementReceipt | null };
  /** The request holding it did no paid work (`err`: why): any claim it holds goes back. */
  giveBack(err: unknown): void;
}
