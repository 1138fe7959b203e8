import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { JOB_WAIT_GRACE_MS, SweepRegistry } from '@app/queues';
import { CallbackOutputs } from './callback-outputs';
import { DeliveryService } from './delivery.service';
import { DeliveryTurns } from './delivery-turns';
import { EventFanout, FANOUT_BATCH } from './event-fanout';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import { CreateSubscription } from './usecases/create-subscription/create-subscription.usecase';
import { DeleteSubscription } from './usecases/delete-subscription/delete-subscription.usecase';
import { DeliverAttempt } from './usecases/deliver-attempt/deliver-attempt.usecase';
import { GetSubscription } from './usecases/get-subscription/get-subscription.usecase';
import { ListDeliveries } from './usecases/list-deliveries/list-deliveries.usecase';
import { ListSubscriptions } from './usecases/list-subscriptions/list-subscriptions.usecase';
import { ListFailedSubscriptions } from './usecases/list-failed-subscriptions/list-failed-subscriptions.usecase';
import { Redeliver } from './usecases/redeliver/redeliver.usecase';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

const USE_CASES = [
  CreateSubscription,
  GetSubscription,
  ListSubscriptions,
  ListFailedSubscriptions,
  DeleteSubscription,
  ListDeliveries,
  Redeliver,
  DeliverAttempt,
];

/** Webhook subscriptions and every outbound delivery (events and execution callbacks). The worker adds OutboxRelay. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscriptionEntity, WebhookDeliveryEntity]), AuthModule],
  providers: [
    ...USE_CASES,
    WebhookSubscriptionsRepository,
    WebhookDeliveriesRepository,
    DeliveryService,
    DeliveryTurns,
    EventFanout,
    CallbackOutputs,
  ],
  exports: [...USE_CASES, DeliveryService, EventFanout, CallbackOutputs],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly deliveries: DeliveryService,
    private readonly turns: DeliveryTurns,
  ) {}

  /** What the worker's sweeper collects for this domain: events not yet fanned out, and due delivery attempts (those in line too, if Redis lost them). */
  onModuleInit(): void {
    // An event's fan-out job is enqueued at its commit; a delivery's at its scheduled time: lost only past a queue wait.
    this.sweeps.register(
      'event.fanout',
      async () => {
        const events = await this.deliveries.unpublishedEvents();
        return Array.from({ length: Math.ceil(events.length / FANOUT_BATCH) }, (_, i) =>
          events.slice(i * FANOUT_BATCH, (i + 1) * FANOUT_BATCH),
        ).map((batch) => ({ id: batch[0].id, data: { eventIds: batch.map((e) => e.id) }, dueAt: batch[0].createdAt }));
      },
      { graceMs: JOB_WAIT_GRACE_MS },
    );
    this.sweeps.register(
      'webhook.deliver',
      async () => (await this.deliveries.due()).map(({ id, dueAt }) => ({ id, data: { deliveryId: id }, dueAt })),
      { graceMs: JOB_WAIT_GRACE_MS },
    );
    this.sweeps.onLinesLost(() => this.turns.releaseLine());
  }
}
