import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity } from '../../entities/agent.entity';
import { AgentHealthRepository, UNKNOWN_HEALTH } from '../../health/agent-health.repository';

/** `GET /agents/:id`, and the agent a change answers with. */
@Injectable()
export class GetAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly health: AgentHealthRepository,
  ) {}

  async execute(id: string): Promise<AgentEntity> {
    const agent = await this.repo.findById(id);
    if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
    agent.health = (await this.health.viewsOf([id])).get(id) ?? UNKNOWN_HEALTH;
    return agent;
  }
}
