/** What moves a score, and by how much (spec §2 Reputation, resolutions §7). */
export const REPUTATION_DELTAS = {
  'execution.completed': 1,
  'execution.failed': -2,
  'dispute.filed': -5,
  'dispute.agent_wins': 2,
  'dispute.client_wins': -5,
  'dispute.split': 0,
} as const;

export type ReputationEventType = keyof typeof REPUTATION_DELTAS;

/** How many recent events the reputation view shows. */
export const RECENT_EVENTS = 20;
