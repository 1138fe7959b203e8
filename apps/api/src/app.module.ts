import { MetricsModule } from '@app/metrics';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { AgentsModule } from '@app/agents';
import { AnalyticsModule } from '@app/analytics';
import { ChainsModule } from '@app/chains';
import { DisputesModule } from '@app/disputes';
import { Clock, ClockModule } from '@app/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { OutboundModule } from '@app/outbound';
import { PaymentsModule } from '@app/payments';
import { CatalogModule } from '@app/catalog';
import { ExecutionModule } from '@app/execution';
import { QueuesModule, RedisModule } from '@app/queues';
import { ReputationModule } from '@app/reputation';
import { WebhooksModule } from '@app/webhooks';
import { X402Module } from '@app/x402';
import { AdminAgentsController } from './admin/admin-agents.controller';
import { AdminRefundsController } from './admin/admin-refunds.controller';
import { AdminDisputesController } from './admin/admin-disputes.controller';
import { AdminTestClockController } from './admin/admin-test-clock.controller';
import { AdminInvariantsController } from './admin/admin-invariants.controller';
import { AdminQueuesController } from './admin/admin-queues.controller';
import { AdminPendingController } from './admin/admin-pending.controller';
import { AdminWebhooksController } from './admin/admin-webhooks.controller';
import { DisputesController } from './disputes/disputes.controller';
import { PayerDisputesController } from './disputes/payer-disputes.controller';
import { AgentsController } from './agents/agents.controller';
import { DiscoveryController } from './discovery/discovery.controller';
import { HealthController } from './health/health.controller';
import { PaymentsController } from './payments/payments.controller';
import { ChainsController } from './chains/chains.controller';
import { ExecutionController } from './execution/execution.controller';
import { CapabilityExecuteController } from './execution/capability-execute.controller';
import { ExecutionPresenter } from './execution/execution-presenter';
import { PlatformKeysController } from './execution/platform-keys.controller';
import { WebhooksController } from './webhooks/webhooks.controller';
import { ManifestsController } from './x402/manifests.controller';
import { ReceiptsController } from './x402/receipts.controller';
import { X402DiscoveryController } from './x402/x402-discovery.controller';
import { ReputationController } from './reputation/reputation.controller';
import { AnalyticsController } from './analytics/analytics.controller';
import { FeedController } from './analytics/feed.controller';
import { TimelineController } from './analytics/timeline.controller';
import { ConsoleAuthController } from './console/console-auth.controller';
import { ExecutionListsController } from './analytics/execution-lists.controller';
import { EventsController } from './events/events.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { ObjectBodyPipe, createValidationPipe } from './http/validation';
import { pinoHttpOptions } from './http/logging';
import { IpRateLimiter } from './http/ip-rate-limit';
import { IpRateLimitGuard } from './http/ip-rate-limit.guard';

@Module({})
export class AppModule {
  static register(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Every route, named-wildcard syntax (nestjs-pino's default '*' is converted, with a warning each start).
        LoggerModule.forRoot({
          pinoHttp: pinoHttpOptions(config),
          forRoutes: [{ path: '/{*path}', method: RequestMethod.ALL }],
        }),
        ClockModule.register(clock),
        MetricsModule.forProcess('api'),
        DatabaseModule.forRoot('agora-api'),
        RedisModule,
        QueuesModule.forRoot(),
        OutboundModule,
        TerminusModule.forRoot({ logger: false }),
        AgentsModule.register({ registrationFee: [PaymentsModule] }),
        PaymentsModule,
        X402Module,
        ExecutionModule,
        CatalogModule,
        ChainsModule,
        WebhooksModule,
        ReputationModule,
        AnalyticsModule,
        DisputesModule,
      ],
      controllers: [
        AgentsController,
        DiscoveryController,
        PaymentsController,
        ExecutionController,
        CapabilityExecuteController,
        PlatformKeysController,
        X402DiscoveryController,
        ManifestsController,
        ReceiptsController,
        ChainsController,
        WebhooksController,
        EventsController,
        ReputationController,
        AnalyticsController,
        TimelineController,
        ConsoleAuthController,
        ExecutionListsController,
        FeedController,
        DisputesController,
        PayerDisputesController,
        AdminAgentsController,
        AdminRefundsController,
        AdminDisputesController,
        AdminTestClockController,
        AdminInvariantsController,
        AdminQueuesController,
        AdminPendingController,
        AdminWebhooksController,
        HealthController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        IpRateLimiter,
        ExecutionPresenter,
        { provide: APP_GUARD, useClass: IpRateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: ObjectBodyPipe },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
