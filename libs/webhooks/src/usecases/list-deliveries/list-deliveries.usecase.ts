import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { WalletAuthContext } from '@app/auth';
import { WebhookDeliveryEntity } from '../../entities/webhook-delivery.entity';
import { WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { GetSubscription } from '../get-subscription/get-subscription.usecase';

/** `GET /webhooks/:id/deliveries`: the delivery log of a subscription the signing agent owns, newest first. */
@Injectable()
export class ListDeliveries {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly getSubscription: GetSubscription,
  ) {}

  async execute(
    id: string,
    auth: WalletAuthContext,
    page: Page,
  ): Promise<{ deliveries: WebhookDeliveryEntity[]; total: number }> {
    await this.getSubscription.owned(id, auth);
    return this.deliveries.list(id, page);
  }
}
