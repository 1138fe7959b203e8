import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { SweepRegistry } from '@app/queues';
import { AgentEntity } from '../entities/agent.entity';
import { AgentCapabilityEntity } from '../entities/agent-capability.entity';
import { AgentHealthEntity, AgentHealthHourlyEntity } from '../entities/agent-health.entity';
import { ProbeAgents } from '../usecases/probe-agents/probe-agents.usecase';
import { PruneHealthHistory } from '../usecases/prune-health-history/prune-health-history.usecase';
import { AgentHealthRepository } from './agent-health.repository';

export const HEALTH_ENTITIES = [AgentHealthEntity, AgentHealthHourlyEntity];

/** The worker's side of agents' health: the probe rounds and the history's prune. */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity, AgentCapabilityEntity, ...HEALTH_ENTITIES])],
  providers: [AgentHealthRepository, ProbeAgents, PruneHealthHistory],
  exports: [ProbeAgents, PruneHealthHistory],
})
export class AgentHealthModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Every tick while probing is on: hourly buckets past 7 days go.
    this.sweeps.register(
      'agent-health.prune',
      async () =>
        this.config.healthProbeIntervalS > 0
          ? [{ id: 'old', data: { requestedAt: this.clock.now().toISOString() } }]
          : [],
      { periodic: true },
    );
  }
}
