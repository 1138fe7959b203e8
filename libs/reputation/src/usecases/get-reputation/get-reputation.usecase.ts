import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { reputationTier } from '../../reputation-tier';
import type { ReputationTier } from '../../reputation-tier';
import { ReputationRepository } from '../../reputation.repository';
import { RECENT_EVENTS } from '../../reputation.rules';

export interface ReputationView {
  agentId: string;
  score: number;
  tier: ReputationTier;
  status: string;
  recentEvents: { type: string; delta: number; score: number; refId: string | null; createdAt: Date }[];
  breakdown: { successfulExecutions: number; failedExecutions: number; disputesWon: number; disputesLost: number };
}

/**
 * What an event's cause shows to every reader: a transaction (`tx_`) or a dispute, never a request id
 * (`req_`, a failed run's): it is the payer's secret (resolutions §3), which reads the output and starts
 * the retry of the payer's stored authorization.
 */
const publicRef = (refId: string | null): string | null => (refId?.startsWith('req_') ? null : refId);

/** `GET /reputation/:agentId`: score, tier, the newest events first, and the counts behind them. */
@Injectable()
export class GetReputation {
  constructor(private readonly repo: ReputationRepository) {}

  async execute(agentId: string): Promise<ReputationView> {
    const { agent, events } = await this.repo.profile(agentId, RECENT_EVENTS);
    if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    return {
      agentId,
      score: agent.score,
      tier: reputationTier(agent.score),
      status: agent.status,
      recentEvents: events.map((e) => ({ ...e, refId: publicRef(e.refId) })),
      breakdown: {
        successfulExecutions: agent.successful,
        failedExecutions: agent.failed,
        disputesWon: agent.disputesWon,
        disputesLost: agent.disputesLost,
      },
    };
  }
}
