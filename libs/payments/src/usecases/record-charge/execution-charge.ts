import { AccountRef } from '@app/ledger';

/** What RecordCharge writes for one charged execution. */
export interface ExecutionCharge {
  /** The `tx_` id to create (chosen by the caller so it can be returned before commit). */
  transactionId?: string;
  paymentId: string | null;
  payerWallet: string;
  requestingAgent: string;
  agentId: string;
  /**
   * The score that sets the hold. Left out (the charger): the agent's score at the charge, read by
   * the statement that writes the hold, so a score moved since the target was cached still decides.
   */
  agentReputation?: number;
  /**
   * Whether a hold due now may be released inside this transaction (it waits for the hold's
   * result). False for a one-trip transaction (COMMIT already sent): a hold due now comes back
   * `held` with `releaseAt` <= now, and the caller releases it right after commit.
   */
  releaseInline?: boolean;
  capabilityId: string;
  agentFee: bigint;
  platformFee: bigint;
  executionTimeMs: number;
  /**
   * Variable pricing: the execution this charge is for, and the agent fee the payment covered
   * (the cap). What was paid above `agentFee` is owed back to the payer as a refund.
   */
  refund?: {
    executionId: string;
    authorizedAgentFee: bigint;
    /** The `rfd_` id to use if a refund is owed. */ id?: string;
  };
  /**
   * Where the money comes from when it is not an x402 payment arriving from the chain: a chain's
   * budget (`from` chain:budget), which pays only what the execution cost; the unused part of its
   * reservation never left it, so it is neither moved nor refunded.
   */
  source?: { from: AccountRef };
}
