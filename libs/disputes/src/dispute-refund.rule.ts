import { DisputedTransaction, splitAgentFee } from '@app/payments';
import { DISPUTE_OUTCOMES } from './dispute.rules';

export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** What a dispute's outcome gives back to the payer, and the transaction's status after it. */
export interface DisputeRefund {
  /** Of the agent fee: all of it (client_wins), half of it rounded down to the micro-USDC (split), or nothing. */
  fee: bigint;
  /** Its parts: the platform's cut and the agent's earnings (the charge's own split when it is all of the fee, else the fee rule's). */
  cut: bigint;
  earnings: bigint;
  /** `refunded` when all of the agent fee goes back (client_wins), else `completed`. */
  transactionStatus: 'refunded' | 'completed';
}

/** The rule "what each dispute outcome refunds" (resolutions §7). */
export function disputeRefund(
  outcome: DisputeOutcome,
  tx: Pick<DisputedTransaction, 'agentFee' | 'platformCut' | 'agentEarnings'>,
): DisputeRefund {
  const fee = outcome === 'agent_wins' ? 0n : outcome === 'client_wins' ? tx.agentFee : tx.agentFee / 2n;
  const share = fee === tx.agentFee ? { cut: tx.platformCut, earnings: tx.agentEarnings } : splitAgentFee(fee);
  return { fee, ...share, transactionStatus: outcome === 'client_wins' ? 'refunded' : 'completed' };
}

/**
 * The ids of a dispute's refund row and debt: its own id under their prefixes, so a resolution retried
 * opens the same rows (idempotent) and a refund or debt names its dispute.
 */
export function disputeMoneyIds(disputeId: string): { refundId: string; debtId: string } {
  const suffix = disputeId.slice('dsp_'.length);
  return { refundId: `rfd_${suffix}`, debtId: `dbt_${suffix}` };
}
