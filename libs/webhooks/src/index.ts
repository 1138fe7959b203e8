export * from './entities/webhook-subscription.entity';
export * from './entities/webhook-delivery.entity';
export * from './webhook-signature';
export * from './delivery.service';
export * from './event-fanout';
export * from './webhooks.service';
export * from './outbox-relay';
export * from './webhooks.module';
