import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { SweepRegistry } from '@app/queues';
import { DeliveryService } from './delivery.service';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import { WebhooksService } from './webhooks.service';

/** Webhook subscriptions and every outbound delivery (events and execution callbacks). The worker adds OutboxRelay. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscriptionEntity, WebhookDeliveryEntity]), AuthModule],
  providers: [WebhooksService, DeliveryService],
  exports: [WebhooksService, DeliveryService],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly deliveries: DeliveryService,
  ) {}

  /** What the worker's sweeper collects for this domain: events not yet fanned out, and due delivery attempts. */
  onModuleInit(): void {
    this.sweeps.register('event.fanout', async () => (await this.deliveries.unpublishedEvents()).map((id) => ({ id, data: { eventId: id } })));
    this.sweeps.register('webhook.deliver', async () => (await this.deliveries.due()).map((id) => ({ id, data: { deliveryId: id } })));
  }
}
