import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { AgentsRepository, SuspendedAgentRow } from '../../agents.repository';

/** `GET /admin/agents/suspended`: suspended agents, most recently suspended first, with who did it and why. */
@Injectable()
export class ListSuspendedAgents {
  constructor(private readonly repo: AgentsRepository) {}

  execute(page: Page): Promise<{ agents: SuspendedAgentRow[]; total: number }> {
    return this.repo.listSuspended(page);
  }
}
