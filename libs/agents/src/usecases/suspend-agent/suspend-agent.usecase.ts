import { Injectable } from '@nestjs/common';
import { AppException, NotFoundException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity } from '../../entities/agent.entity';
import { GetAgent } from '../get-agent/get-agent.usecase';

/** `POST /admin/agents/:id/suspend`: the platform suspends an agent. */
@Injectable()
export class SuspendAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly getAgent: GetAgent,
  ) {}

  async execute(id: string, reason: string | undefined): Promise<AgentEntity> {
    await this.tx.run(async (manager) => {
      const agent = await this.repo.lockById(manager, id);
      if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
      if (agent.status === 'suspended')
        throw new AppException('INVALID_STATE', 'Agent is already suspended', { status: agent.status });
      await this.repo.update(manager, id, {
        status: 'suspended',
        suspendedReason: reason ?? null,
        suspendedBy: 'admin',
      });
    });
    return this.getAgent.execute(id);
  }
}
