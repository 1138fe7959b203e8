import { Injectable } from '@nestjs/common';
import { AppException, NotFoundException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity } from '../../entities/agent.entity';
import { GetAgent } from '../get-agent/get-agent.usecase';

/** `POST /admin/agents/:id/reinstate`: a suspended agent becomes active again. */
@Injectable()
export class ReinstateAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly getAgent: GetAgent,
  ) {}

  async execute(id: string): Promise<AgentEntity> {
    await this.tx.run(async (manager) => {
      const agent = await this.repo.lockById(manager, id);
      if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
      if (agent.status !== 'suspended')
        throw new AppException('INVALID_STATE', 'Only a suspended agent can be reinstated', { status: agent.status });
      await this.repo.update(manager, id, { status: 'active', suspendedReason: null, suspendedBy: null });
    });
    return this.getAgent.execute(id);
  }
}
