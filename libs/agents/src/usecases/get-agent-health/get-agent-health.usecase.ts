import { Injectable } from '@nestjs/common';
import { Clock, NotFoundException } from '@app/common';
import { AgentsRepository } from '../../agents.repository';
import {
  AgentHealthRepository,
  AgentHealthView,
  HEALTH_HISTORY_DAYS,
  HealthHour,
  UNKNOWN_HEALTH,
} from '../../health/agent-health.repository';

export interface AgentHealthHistory {
  agentId: string;
  health: AgentHealthView;
  /** Hourly buckets of the last HEALTH_HISTORY_DAYS days, oldest first; hours without probes are absent. */
  hours: HealthHour[];
}

/** `GET /agents/:id/health`: the agent's health and its probe history by the hour (at most 168 rows). */
@Injectable()
export class GetAgentHealth {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly health: AgentHealthRepository,
    private readonly clock: Clock,
  ) {}

  async execute(agentId: string): Promise<AgentHealthHistory> {
    if (!(await this.agents.findById(agentId))) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    const since = new Date(this.clock.nowMs() - (HEALTH_HISTORY_DAYS * 24 - 1) * 3_600_000);
    const [views, hours] = await Promise.all([this.health.viewsOf([agentId]), this.health.hourly(agentId, since)]);
    return { agentId, health: views.get(agentId) ?? UNKNOWN_HEALTH, hours };
  }
}
