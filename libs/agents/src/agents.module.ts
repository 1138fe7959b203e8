import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { LedgerModule } from '@app/ledger';
import { AgentRankingRepository } from './agent-ranking.repository';
import { HEALTH_ENTITIES } from './health/agent-health.module';
import { AgentHealthRepository } from './health/agent-health.repository';
import { AgentsRepository } from './agents.repository';
import { AgentCatalogModule } from './agent-catalog.module';
import { AgentEntity } from './entities/agent.entity';
import { AgentRankingEntity, AgentSearchEntity } from './entities/agent-ranking.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';
import { NoRegistrationFee, RegistrationFeeStep } from './registration-fee.step';
import { DeactivateAgent } from './usecases/deactivate-agent/deactivate-agent.usecase';
import { DiscoverAgents } from './usecases/discover-agents/discover-agents.usecase';
import { GetAgent } from './usecases/get-agent/get-agent.usecase';
import { GetAgentHealth } from './usecases/get-agent-health/get-agent-health.usecase';
import { GetAgentWallet } from './usecases/get-agent-wallet/get-agent-wallet.usecase';
import { RegisterAgent } from './usecases/register-agent/register-agent.usecase';
import { ReinstateAgent } from './usecases/reinstate-agent/reinstate-agent.usecase';
import { SuspendAgent } from './usecases/suspend-agent/suspend-agent.usecase';
import { UpdateAgent } from './usecases/update-agent/update-agent.usecase';
import { ConsoleSignIn } from './usecases/console-sign-in/console-sign-in.usecase';
import { ListSuspendedAgents } from './usecases/list-suspended-agents/list-suspended-agents.usecase';

const USE_CASES = [
  RegisterAgent,
  GetAgent,
  GetAgentHealth,
  GetAgentWallet,
  UpdateAgent,
  DeactivateAgent,
  SuspendAgent,
  ReinstateAgent,
  ListSuspendedAgents,
  DiscoverAgents,
  ConsoleSignIn,
];

/**
 * Agents and discovery. The registration fee is a pluggable step: pass the module that exports
 * RegistrationFeeStep (the payments module); without one, registration is free.
 */
@Module({})
export class AgentsModule {
  static register(opts: { registrationFee?: ModuleMetadata['imports'] } = {}): DynamicModule {
    return {
      module: AgentsModule,
      imports: [
        TypeOrmModule.forFeature([
          AgentEntity,
          AgentCapabilityEntity,
          AgentRankingEntity,
          AgentSearchEntity,
          ...HEALTH_ENTITIES,
        ]),
        AuthModule,
        LedgerModule,
        AgentCatalogModule,
        ...(opts.registrationFee ?? []),
      ],
      providers: [
        ...USE_CASES,
        AgentsRepository,
        AgentRankingRepository,
        AgentHealthRepository,
        ...(opts.registrationFee ? [] : [{ provide: RegistrationFeeStep, useClass: NoRegistrationFee }]),
      ],
      exports: [...USE_CASES, AuthModule, AgentCatalogModule],
    };
  }
}
