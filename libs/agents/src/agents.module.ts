import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { DiscoveryService } from './discovery.service';
import { AgentEntity } from './entities/agent.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';
import { NoRegistrationFee, RegistrationFeeStep } from './registration-fee.step';

@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity, AgentCapabilityEntity]), AuthModule],
  providers: [AgentsRepository, AgentsService, DiscoveryService, { provide: RegistrationFeeStep, useClass: NoRegistrationFee }],
  exports: [AgentsService, DiscoveryService, AuthModule],
})
export class AgentsModule {}
