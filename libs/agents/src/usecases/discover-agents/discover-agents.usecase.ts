import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { AgentRankingRepository, RankingFilters } from '../../agent-ranking.repository';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity } from '../../entities/agent.entity';
import { AgentCapabilityEntity } from '../../entities/agent-capability.entity';
import { AgentHealthRepository, UNKNOWN_HEALTH } from '../../health/agent-health.repository';
import { escapeLike } from '../../search-text';

export type DiscoverFilters = Omit<RankingFilters, 'failingBefore'>;

export interface DiscoveredAgent {
  agent: AgentEntity;
  /** Only the capabilities that match the filters. */
  capabilities: AgentCapabilityEntity[];
}

/**
 * `GET /discover`: active agents with at least one capability matching the filters, in ranking
 * order (score, then executions, then age), which puts At Risk and Critical agents (below 40) after
 * the rest (resolutions §8); the page comes from `agent_ranking` (AgentRankingRepository). The total
 * is exact up to DISCOVER_TOTAL_CAP (config) and saturates there (`totalExact` false), so no filter
 * costs a count of every matching agent.
 */
@Injectable()
export class DiscoverAgents {
  constructor(
    private readonly ranking: AgentRankingRepository,
    private readonly agents: AgentsRepository,
    private readonly config: AppConfig,
    private readonly health: AgentHealthRepository,
    private readonly clock: Clock,
  ) {}

  async execute(f: DiscoverFilters): Promise<{ agents: DiscoveredAgent[]; total: number; totalExact: boolean }> {
    const cap = this.config.discoverTotalCap;
    const hideS = this.config.healthHideAfterS;
    const failingBefore = hideS > 0 ? new Date(this.clock.nowMs() - hideS * 1000) : undefined;
    const { counted: n, ids } = await this.ranking.page({ ...f, failingBefore }, cap + 1);
    const totalExact = n <= cap;
    const total = totalExact ? n : cap;
    if (ids.length === 0) return { agents: [], total, totalExact };
    const [found, health] = await Promise.all([
      this.agents.withCapabilities(ids, {
        nameLike: f.capability === undefined ? undefined : `%${escapeLike(f.capability)}%`,
        maxPrice: f.maxPrice,
      }),
      this.health.viewsOf(ids),
    ]);
    for (const [id, d] of found) d.agent.health = health.get(id) ?? UNKNOWN_HEALTH;
    return { total, totalExact, agents: ids.map((id) => found.get(id)!) };
  }
}
