export type ReputationTier = 'Excellent' | 'Trusted' | 'Standard' | 'At Risk' | 'Critical';

/** The spec's tier table (§2 Reputation). */
export function reputationTier(score: number): ReputationTier {
  if (score >= 80) return 'Excellent';
  if (score >= 60) return 'Trusted';
  if (score >= 40) return 'Standard';
  if (score >= 20) return 'At Risk';
  return 'Critical';
}

export const INITIAL_REPUTATION = 50;

/** The hold lengths of the tiers that have one, in seconds (ESCROW_HOLD_STANDARD_S, _AT_RISK_S, _CRITICAL_S). */
export interface EscrowHolds {
  escrowHoldStandardS: number;
  escrowHoldAtRiskS: number;
  escrowHoldCriticalS: number;
}

/** How long an agent of this score has its earnings held in escrow (resolutions §6): Excellent and Trusted none. */
export function escrowHoldSeconds(score: number, holds: EscrowHolds): number {
  switch (reputationTier(score)) {
    case 'Excellent':
    case 'Trusted':
      return 0;
    case 'Standard':
      return holds.escrowHoldStandardS;
    case 'At Risk':
      return holds.escrowHoldAtRiskS;
    case 'Critical':
      return holds.escrowHoldCriticalS;
  }
}
