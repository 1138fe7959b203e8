import { Injectable } from '@nestjs/common';
import { NotFoundException, Page } from '@app/common';
import { DisputeEntity, DisputeStatus } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';

/** `GET /disputes/agent/:agentId`: an agent's disputes, newest first, with the total for the filter (AGENT_NOT_FOUND for no such agent). */
@Injectable()
export class ListAgentDisputes {
  constructor(private readonly repo: DisputesRepository) {}

  async execute(
    agentId: string,
    status: DisputeStatus | undefined,
    page: Page,
  ): Promise<{ disputes: DisputeEntity[]; total: number }> {
    const found = await this.repo.listBy({ agentId }, status, page);
    if (found.total === 0 && !(await this.repo.agentExists(agentId)))
      throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    return found;
  }
}
