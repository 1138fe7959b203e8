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
