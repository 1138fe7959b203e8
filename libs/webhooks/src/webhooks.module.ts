import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
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
export class WebhooksModule {}
