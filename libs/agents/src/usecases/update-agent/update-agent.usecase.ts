import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { OutboundUrlPolicy } from '@app/outbound';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { assertCapabilityRules, assertChainSettingsRules, assertEndpointRules } from '../../agent-rules';
import { UpdateAgentInput } from '../../agent.types';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity } from '../../entities/agent.entity';
import { AgentHealthRepository } from '../../health/agent-health.repository';
import { GetAgent } from '../get-agent/get-agent.usecase';
import { lockOwnedAgent } from '../owned-agent';

/**
 * `PATCH /agents/:id` (wallet-signed): the owner's update; a suspended agent cannot change its own status.
 * Setting `status: active` reactivates an agent the health probes set inactive (reason cleared, probed soon;
 * the failing streak stands until a probe succeeds).
 */
@Injectable()
export class UpdateAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly walletAuth: WalletAuthService,
    private readonly getAgent: GetAgent,
    private readonly health: AgentHealthRepository,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, auth: WalletAuthContext, input: UpdateAgentInput): Promise<AgentEntity> {
    if (input.capabilities) assertCapabilityRules(input.capabilities);
    if (input.endpoints) await assertEndpointRules(this.urlPolicy, input.endpoints);
    if (input.chainSettings) assertChainSettingsRules(input.chainSettings, id);
    const probeSoon = await this.tx.run(async (manager) => {
      const agent = await lockOwnedAgent(this.repo, manager, id, auth);
      await this.walletAuth.consume(manager, auth);
      if (input.status !== undefined && agent.status === 'suspended') {
        throw new AppException('INVALID_STATE', 'A suspended agent cannot change its own status', {
          status: agent.status,
        });
      }
      const changes: Partial<AgentEntity> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.endpoints !== undefined) changes.endpoints = input.endpoints;
      if (input.metadata !== undefined) changes.metadata = input.metadata;
      if (input.status !== undefined) changes.status = input.status;
      // Reactivated (after the platform set it inactive for its health, or the owner did): no reason.
      if (input.status === 'active' && agent.status !== 'active') changes.inactiveReason = null;
      if (input.chainSettings !== undefined) changes.chainSettings = { ...agent.chainSettings, ...input.chainSettings };
      await this.repo.update(manager, id, changes, input.capabilities);
      return changes.inactiveReason === null || input.endpoints !== undefined;
    });
    // Reactivated or new endpoints: probed within a tick. The failing streak is kept (only a successful
    // probe ends it), so a dead agent stays hidden, and is set inactive again at its next failed probe.
    // After the commit, so the agent's row lock is never held while waiting for a health row.
    if (probeSoon) await this.health.probeSoon(id, this.clock.now());
    return this.getAgent.execute(id);
  }
}
