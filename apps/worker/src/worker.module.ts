import { traceLogFields } from '@app/tracing';
import { MetricsModule } from '@app/metrics';
import { DynamicModule, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AuthModule } from '@app/auth';
import { ClockModule } from '@app/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { FairShare, QueuesModule, RedisModule } from '@app/queues';
import { PaymentsModule } from '@app/payments';
import { ExecutionModule, WorkPartiesRepository } from '@app/execution';
import { ChainsModule } from '@app/chains';
import { DisputesModule } from '@app/disputes';
import { ReputationModule } from '@app/reputation';
import { OutboundModule } from '@app/outbound';
import { AgentHealthModule } from '@app/agents';
import { AnalyticsModule } from '@app/analytics';
import { OutboxRelay, WebhooksModule } from '@app/webhooks';
import { HeartbeatService } from './heartbeat.service';
import { JobHandlerRegistry } from './job-handlers';
import { Sweeper } from './sweeper';
import { MetricsServer } from './metrics-server';
import { InvariantMonitor } from './invariant-monitor';
import { PayloadStorageMonitor } from './payload-storage-monitor';
import { HealthProber } from './health-prober';
import { SeriesRollup } from './series-rollup';
import { WorkShares } from './work-shares';
import { MoneyProcessor } from './processors/money.processor';
import { ExecutionsProcessor } from './processors/executions.processor';
import { WebhooksProcessor } from './processors/webhooks.processor';
import { MaintenanceProcessor } from './processors/maintenance.processor';

@Module({})
export class WorkerModule implements OnApplicationBootstrap {
  constructor(private readonly registry: JobHandlerRegistry) {}

  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: { level: config.logLevel, mixin: traceLogFields } }),
        ClockModule.register(),
        MetricsModule.forProcess('worker'),
        DiscoveryModule,
        DatabaseModule.forRoot('agora-worker'),
        RedisModule,
        QueuesModule.forRoot(),
        AuthModule,
        PaymentsModule,
        OutboundModule,
        ExecutionModule,
        ChainsModule,
        WebhooksModule,
        DisputesModule,
        ReputationModule,
        AgentHealthModule,
        AnalyticsModule,
      ],
      providers: [
        JobHandlerRegistry,
        FairShare,
        WorkPartiesRepository,
        WorkShares,
        MaintenanceProcessor,
        MoneyProcessor,
        ExecutionsProcessor,
        WebhooksProcessor,
        OutboxRelay,
        Sweeper,
        InvariantMonitor,
        PayloadStorageMonitor,
        SeriesRollup,
        HealthProber,
        HeartbeatService,
        MetricsServer,
      ],
    };
  }

  onApplicationBootstrap(): void {
    this.registry.assertComplete();
  }
}
