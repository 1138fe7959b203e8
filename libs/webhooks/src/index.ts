export { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
export { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
export { whsecProblem } from './webhook-signature';
export { CallbackOutputs } from './callback-outputs';
export { DeliveryService } from './delivery.service';
export { EventFanout } from './event-fanout';
export { CreateSubscription } from './usecases/create-subscription/create-subscription.usecase';
export { ListSubscriptions } from './usecases/list-subscriptions/list-subscriptions.usecase';
export { ListFailedSubscriptions } from './usecases/list-failed-subscriptions/list-failed-subscriptions.usecase';
export type { FailedSubscription } from './usecases/list-failed-subscriptions/list-failed-subscriptions.usecase';
export { DeleteSubscription } from './usecases/delete-subscription/delete-subscription.usecase';
export { ListDeliveries } from './usecases/list-deliveries/list-deliveries.usecase';
export { Redeliver } from './usecases/redeliver/redeliver.usecase';
export { DeliverAttempt } from './usecases/deliver-attempt/deliver-attempt.usecase';
export { OutboxRelay } from './outbox-relay';
export { WebhooksModule } from './webhooks.module';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { eventDeliveryHeaders } from './webhook-signature';
