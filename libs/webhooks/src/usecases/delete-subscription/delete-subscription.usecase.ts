import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';
import { GetSubscription } from '../get-subscription/get-subscription.usecase';

/** `DELETE /webhooks/:id` (wallet-signed): keeps the row for the delivery log (`deleted`); attempts not yet sent are cancelled. */
@Injectable()
export class DeleteSubscription {
  constructor(
    private readonly subscriptions: WebhookSubscriptionsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly walletAuth: WalletAuthService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly getSubscription: GetSubscription,
  ) {}

  async execute(id: string, auth: WalletAuthContext): Promise<void> {
    await this.getSubscription.owned(id, auth);
    await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      await this.subscriptions.markDeleted(m, id, this.clock.now());
      await this.deliveries.cancelPending(m, id);
    });
  }
}
