/** Limits of the disputes resource (spec "Limits"; evidence caps are ours: text, not uploads). */
export const DISPUTE_LIMITS = {
  reason: 1000,
  response: 2000,
  evidence: 5000,
  note: 1000,
} as const;

export const DISPUTE_OUTCOMES = ['agent_wins', 'client_wins', 'split'] as const;
export const DISPUTE_STATUSES = ['pending', 'responded', 'resolved'] as const;

/** Who resolved a dispute whose window closed unanswered. */
export const RESOLVED_BY_TIMEOUT = 'system:timeout';
