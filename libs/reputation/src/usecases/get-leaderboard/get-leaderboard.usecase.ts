import { Injectable } from '@nestjs/common';
import { reputationTier } from '../../reputation-tier';
import type { ReputationTier } from '../../reputation-tier';
import { ReputationRepository } from '../../reputation.repository';

export interface LeaderboardEntry {
  rank: number;
  agentId: string;
  name: string;
  score: number;
  tier: ReputationTier;
  totalExecutions: number;
}

/** `GET /reputation/leaderboard`: active agents by score, then executions (ties: the older agent first). */
@Injectable()
export class GetLeaderboard {
  constructor(private readonly repo: ReputationRepository) {}

  async execute(limit: number): Promise<LeaderboardEntry[]> {
    const rows = await this.repo.leaderboard(limit);
    return rows.map((r, i) => ({
      rank: i + 1,
      agentId: r.agentId,
      name: r.name,
      score: r.score,
      tier: reputationTier(r.score),
      totalExecutions: r.totalExecutions,
    }));
  }
}
