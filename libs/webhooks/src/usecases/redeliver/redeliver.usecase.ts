import { Injectable } from '@nestjs/common';
import { Clock, newId, NotFoundException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { activeTraceparent } from '@app/tracing';
import { DeliveryService } from '../../delivery.service';
import { WebhookDeliveryEntity } from '../../entities/webhook-delivery.entity';
import { WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { GetSubscription } from '../get-subscription/get-subscription.usecase';

/**
 * `POST /webhooks/:id/deliveries/:deliveryId/redeliver` (wallet-signed): a new single attempt of a
 * past event delivery, due now, to the subscription's current URL, outside the retry schedule,
 * traced to the request that asked for it; the signed message is spent in the same transaction.
 */
@Injectable()
export class Redeliver {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly delivery: DeliveryService,
    private readonly walletAuth: WalletAuthService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly getSubscription: GetSubscription,
  ) {}

  async execute(id: string, deliveryId: string, auth: WalletAuthContext): Promise<WebhookDeliveryEntity> {
    await this.getSubscription.owned(id, auth);
    const created = await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      const row = await this.deliveries.insertRedelivery(m, {
        deliveryId,
        subscriptionId: id,
        id: newId('dlv'),
        at: this.clock.now(),
        traceparent: activeTraceparent(),
      });
      if (!row) throw new NotFoundException('NOT_FOUND', 'Delivery', deliveryId);
      return row;
    });
    await this.delivery.wake(created, 0);
    return (await this.deliveries.findById(created))!;
  }
}
