import { Injectable } from '@nestjs/common';
import { newUuid, normalizeWallet } from '@app/common';
import { INITIAL_REPUTATION } from '@app/reputation';
import { CommitOutcomeUnknown, isTransientDatabaseError, TransactionRunner } from '@app/database';
import { Accounts, LedgerAccounts } from '@app/ledger';
import { OutboundUrlPolicy } from '@app/outbound';
import { assertCapabilityRules, assertEndpointRules } from '../../agent-rules';
import { RegisterAgentInput } from '../../agent.types';
import { AgentsRepository } from '../../agents.repository';
import { AgentEntity, DEFAULT_CHAIN_SETTINGS } from '../../entities/agent.entity';
import {
  PendingRegistrationFee,
  RegistrationFeeCharge,
  RegistrationFeeContext,
  RegistrationFeeStep,
} from '../../registration-fee.step';
import { GetAgent } from '../get-agent/get-agent.usecase';

export type RegisteredAgent =
  | { agent: AgentEntity; receipt: RegistrationFeeCharge['receipt']; unconfirmed?: undefined }
  | {
      agent: null;
      receipt: RegistrationFeeCharge['receipt'];
      /**
       * The fee settled, then Postgres failed before the agent's creation was known: the id it has if its
       * transaction was kept (`agentId`). Or the fee's settlement itself is not known (`fee`): no agent was
       * created. Either way the worker refunds a fee that moved with no agent (RecoverRegistrationPayment).
       */
      unconfirmed: { agentId: string; fee?: undefined } | { agentId: null; fee: PendingRegistrationFee };
    };

/** A lost database after the fee settled: what was kept is not known (a COMMIT lost), or nothing was. */
const lostDatabase = (err: unknown) => err instanceof CommitOutcomeUnknown || isTransientDatabaseError(err);

/** `POST /agents`: validates, takes the registration fee, and creates the agent with its ledger accounts. */
@Injectable()
export class RegisterAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly registrationFee: RegistrationFeeStep,
    private readonly accounts: LedgerAccounts,
    private readonly getAgent: GetAgent,
  ) {}

  async execute(input: RegisterAgentInput, fee: Omit<RegistrationFeeContext, 'wallet'>): Promise<RegisteredAgent> {
    assertCapabilityRules(input.capabilities);
    await assertEndpointRules(this.urlPolicy, input.endpoints);
    const wallet = normalizeWallet(input.wallet);
    // Validation is complete before the fee is touched: a rejected request is never charged.
    const charge = await this.registrationFee.authorize({ ...fee, wallet });
    if (charge?.pending) return { agent: null, receipt: null, unconfirmed: { agentId: null, fee: charge.pending } };
    const id = newUuid();
    try {
      await this.create(id, wallet, input, charge);
      return { agent: await this.getAgent.execute(id), receipt: charge?.receipt ?? null };
    } catch (err) {
      // The fee settled (its money moved): never "send again", which would pay it twice. The answer says
      // where to read the payment: settled with the agent, or refunded in full after REGISTRATION_BIND_GRACE_MS.
      if (charge?.receipt && lostDatabase(err))
        return { agent: null, receipt: charge.receipt, unconfirmed: { agentId: id } };
      throw err;
    }
  }

  /** The agent, its ledger accounts and its fee, in one transaction. */
  private async create(
    id: string,
    wallet: string,
    input: RegisterAgentInput,
    charge: RegistrationFeeCharge | null,
  ): Promise<void> {
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
      // The agent's accounts exist before its first charge (see LedgerAccounts).
      await this.accounts.open(manager, [
        Accounts.agentAvailable(id),
        Accounts.agentEscrow(id),
        Accounts.agentFrozen(id),
        Accounts.agentWithdrawing(id),
        Accounts.agentOwed(id),
      ]);
      await this.registrationFee.capture(manager, charge, id);
    });
  }
}
