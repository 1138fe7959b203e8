import { Injectable } from '@nestjs/common';
import { newUuid, normalizeWallet } from '@app/common';
import { INITIAL_REPUTATION } from '@app/reputation';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { OutboundUrlPolicy } from '@app/outbound';
import { assertCapabilityRules, assertEndpointRules } from '../../agent-rules';
import { RegisterAgentInput } from '../../agent.types';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity, DEFAULT_CHAIN_SETTINGS } from '../../entities/agent.entity';
import { RegistrationFeeCharge, RegistrationFeeContext, RegistrationFeeStep } from '../../registration-fee.step';
import { GetAgent } from '../get-agent/get-agent.usecase';

export interface RegisteredAgent {
  agent: AgentEntity;
  receipt: RegistrationFeeCharge['receipt'];
}

/** `POST /agents`: validates, takes the registration fee, and creates the agent with its ledger accounts. */
@Injectable()
export class RegisterAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly registrationFee: RegistrationFeeStep,
    private readonly ledger: LedgerService,
    private readonly getAgent: GetAgent,
  ) {}

  async execute(input: RegisterAgentInput, fee: Omit<RegistrationFeeContext, 'wallet'>): Promise<RegisteredAgent> {
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
    return { agent: await this.getAgent.execute(id), receipt: charge?.receipt ?? null };
  }
}
