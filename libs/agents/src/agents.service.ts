import { Injectable } from '@nestjs/common';
import { AppException, newUuid, normalizeWallet, NotFoundException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { OutboundUrlPolicy } from '@app/outbound';
import { INITIAL_REPUTATION } from '@app/reputation';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { assertCapabilityRules, assertChainSettingsRules, assertEndpointRules } from './agent-rules';
import { RegisterAgentInput, UpdateAgentInput } from './agent.types';
import { AgentsRepository } from './agents.repository';
import { AgentEntity, DEFAULT_CHAIN_SETTINGS } from './entities/agent.entity';
import { RegistrationFeeCharge, RegistrationFeeContext, RegistrationFeeStep } from './registration-fee.step';

export interface RegisteredAgent {
  agent: AgentEntity;
  receipt: RegistrationFeeCharge['receipt'];
}

/** Agent lifecycle: registration, reads, owner updates, deactivation, platform suspension. */
@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly walletAuth: WalletAuthService,
    private readonly registrationFee: RegistrationFeeStep,
    private readonly ledger: LedgerService,
  ) {}

  async register(input: RegisterAgentInput, fee: Omit<RegistrationFeeContext, 'wallet'>): Promise<RegisteredAgent> {
    assertCapabilityRules(input.capabilities);
    await assertEndpointRules(this.urlPolicy, input.endpoints);
    const wallet = normalizeWallet(input.wallet);
    // Validation is complete before the fee is touched: a rejected request is never charged.
    const charge = await this.registrationFee.authorize({ ...fee, wallet });
    const id = newUuid();
    await this.tx.run(async (manager) => {
      await this.repo.insert(
        manager,
        {
          id,
          wallet,
          name: input.name,
          description: input.description ?? null,
          endpoints: input.endpoints,
          metadata: input.metadata ?? {},
          reputationScore: INITIAL_REPUTATION,
          status: 'active',
          chainSettings: { ...DEFAULT_CHAIN_SETTINGS },
        },
        input.capabilities,
      );
      // The agent's accounts exist before its first charge (see LedgerService.openAccounts).
      await this.ledger.openAccounts(manager, [
        Accounts.agentAvailable(id),
        Accounts.agentEscrow(id),
        Accounts.agentFrozen(id),
        Accounts.agentWithdrawing(id),
        Accounts.agentOwed(id),
      ]);
      await this.registrationFee.capture(manager, charge, id);
    });
    return { agent: await this.get(id), receipt: charge?.receipt ?? null };
  }

  async get(id: string): Promise<AgentEntity> {
    const agent = await this.repo.findById(id);
    if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
    return agent;
  }

  /** The registered wallet, for signature checks. */
  async walletOf(id: string): Promise<string> {
    const wallet = await this.repo.walletOf(id);
    if (wallet === null) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
    return wallet;
  }

  async update(id: string, auth: WalletAuthContext, input: UpdateAgentInput): Promise<AgentEntity> {
    if (input.capabilities) assertCapabilityRules(input.capabilities);
    if (input.endpoints) await assertEndpointRules(this.urlPolicy, input.endpoints);
    if (input.chainSettings) assertChainSettingsRules(input.chainSettings, id);
    await this.tx.run(async (manager) => {
      const agent = await this.lockOwned(manager, id, auth);
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
      if (input.chainSettings !== undefined) changes.chainSettings = { ...agent.chainSettings, ...input.chainSettings };
      await this.repo.update(manager, id, changes, input.capabilities);
    });
    return this.get(id);
  }

  async deactivate(id: string, auth: WalletAuthContext): Promise<void> {
    await this.tx.run(async (manager) => {
      const agent = await this.lockOwned(manager, id, auth);
      await this.walletAuth.consume(manager, auth);
      if (agent.status === 'suspended') {
        throw new AppException('INVALID_STATE', 'A suspended agent cannot be deactivated by its owner', {
          status: agent.status,
        });
      }
      if (agent.status !== 'inactive') await this.repo.update(manager, id, { status: 'inactive' });
    });
  }

  async suspend(id: string, reason: string | undefined): Promise<AgentEntity> {
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
    return this.get(id);
  }

  async reinstate(id: string): Promise<AgentEntity> {
    await this.tx.run(async (manager) => {
      const agent = await this.repo.lockById(manager, id);
      if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
      if (agent.status !== 'suspended')
        throw new AppException('INVALID_STATE', 'Only a suspended agent can be reinstated', { status: agent.status });
      await this.repo.update(manager, id, { status: 'active', suspendedReason: null, suspendedBy: null });
    });
    return this.get(id);
  }

  private async lockOwned(
    manager: Parameters<AgentsRepository['lockById']>[0],
    id: string,
    auth: WalletAuthContext,
  ): Promise<AgentEntity> {
    const agent = await this.repo.lockById(manager, id);
    if (!agent) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
    if (auth.agentId !== id) throw new AppException('FORBIDDEN', 'The signature was made for another agent');
    return agent;
  }
}
