import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { SweepRegistry } from '@app/queues';
import { CallbackOutputs } from './callback-outputs';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryService } from './delivery.service';
import { DeliveryTurns } from './delivery-turns';
import { EventFanout, FANOUT_BATCH } from './event-fanout';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import { WebhooksService } from './webhooks.service';

/** Webhook subscriptions and every outbound delivery (events and execution callbacks). The worker adds OutboxRelay. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscriptionEntity, WebhookDeliveryEntity]), AuthModule],
  providers: [WebhooksService, DeliveryService, DeliveriesRepository, DeliveryTurns, EventFanout, CallbackOutputs],
  exports: [WebhooksService, DeliveryService, EventFanout, CallbackOutputs],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly deliveries: DeliveryService,
    private readonly turns: DeliveryTurns,
  ) {}

  /** What the worker's sweeper collects for this domain: events not yet fanned out, and due delivery attempts (those in line too, if Redis lost them). */
  onModuleInit(): void {
    this.sweeps.register('event.fanout', async () => {
      const ids = await this.deliveries.unpublishedEvents();
      return Array.from({ length: Math.ceil(ids.length / FANOUT_BATCH) }, (_, i) =>
        ids.slice(i * FANOUT_BATCH, (i + 1) * FANOUT_BATCH),
      ).map((batch) => ({
        id: batch[0],
        data: { eventIds: batch },
      }));
    });
    this.sweeps.register('webhook.deliver', async () =>
      (await this.deliveries.due()).map((id) => ({ id, data: { deliveryId: id } })),
    );
    this.sweeps.onLinesLost(() => this.turns.releaseLine());
  }
}
