/** What moves a score, and by how much (spec §2 Reputation, resolutions §7): the spec's deltas, REPUTATION_MODEL=spec. */
export const REPUTATION_DELTAS = {
  'execution.completed': 1,
  'execution.failed': -2,
  'dispute.filed': -5,
  'dispute.agent_wins': 2,
  'dispute.client_wins': -5,
  'dispute.split': 0,
} as const;

export type ReputationEventType = keyof typeof REPUTATION_DELTAS;

/** The dispute a resolution decides: its payer (who filed it) and whether its filing was proven (verified). */
export interface DecidedDispute {
  payer: string;
  verified: boolean;
}

/** How a change is applied: its payer's part (within the payer's limits) and the platform's own part (past them). */
export interface WeightedChange {
  payer: string | null;
  delta: number;
  verdict: number;
}

/**
 * The weighted model's disputes (issue 52, review H2): a filing is an accusation, not a verdict, so it
 * moves nothing (its event is still written, delta 0) and its penalty lands when the agent loses.
 * - client_wins: the filing's -5 (a verified filing's: an unverified one never counted) on the payer's
 *   account, within its limits (once an interval per payer, the funded and unfunded caps per agent), plus
 *   the loss's -5: an admin's verdict past those limits, or, the window having lapsed (nobody decided),
 *   on the payer's account as well;
 * - split: half the filing's penalty (-2, rounded toward 0) on the payer's account; the split itself moves
 *   nothing, as in the spec;
 * - agent_wins: the spec's +2, the platform's (the filing took nothing, so nothing is given back).
 * Anything else: the spec's delta on `payer`'s account.
 */
export function weightedChange(
  type: ReputationEventType,
  payer: string | null,
  dispute: DecidedDispute | undefined,
  lapsed: boolean,
): WeightedChange {
  const filing = dispute?.verified ? REPUTATION_DELTAS['dispute.filed'] : 0;
  switch (type) {
    case 'dispute.filed':
      return { payer, delta: 0, verdict: 0 };
    case 'dispute.client_wins':
      if (!dispute) break;
      return lapsed
        ? { payer: dispute.payer, delta: filing + REPUTATION_DELTAS[type], verdict: 0 }
        : { payer: dispute.payer, delta: filing, verdict: REPUTATION_DELTAS[type] };
    case 'dispute.split':
      if (!dispute) break;
      return { payer: dispute.payer, delta: Math.trunc(filing / 2), verdict: 0 };
    default:
      break;
  }
  return { payer, delta: REPUTATION_DELTAS[type], verdict: 0 };
}

/** How many recent events the reputation view shows. */
export const RECENT_EVENTS = 20;
