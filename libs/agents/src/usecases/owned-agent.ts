import { EntityManager } from 'typeorm';
import { AppException, NotFoundException } from '@app/common';
import { WalletAuthContext } from '@app/auth';
import { AgentsRepository } from '../agents.repository';
import { AgentEntity } from '../entities/agent.entity';

/** The agent, row-locked in the caller's transaction, when the signature was made for it (an owner's change). */
export async function lockOwnedAgent(
  repo: AgentsRepository,
  manager: EntityManager,
  id: string,
  auth: WalletAuthContext,
): Promise<AgentEntity> {
  const agent = await repo.lockById(manager, id);
  if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
  if (auth.agentId !== id) throw new AppException('FORBIDDEN', 'The signature was made for another agent');
  return agent;
}
