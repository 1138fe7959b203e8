import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { LedgerModule } from '@app/ledger';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { DiscoveryService } from './discovery.service';
import { RecommendAgents } from './recommend-agents';
import { AgentEntity } from './entities/agent.entity';
import { AgentRankingEntity, AgentSearchEntity } from './entities/agent-ranking.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';
import { NoRegistrationFee, RegistrationFeeStep } from './registration-fee.step';

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
        TypeOrmModule.forFeature([AgentEntity, AgentCapabilityEntity, AgentRankingEntity, AgentSearchEntity]),
        AuthModule,
        LedgerModule,
        ...(opts.registrationFee ?? []),
      ],
      providers: [
        AgentsRepository,
        AgentsService,
        DiscoveryService,
        RecommendAgents,
        ...(opts.registrationFee ? [] : [{ provide: RegistrationFeeStep, useClass: NoRegistrationFee }]),
      ],
      exports: [AgentsService, DiscoveryService, RecommendAgents, AuthModule],
    };
  }
}
