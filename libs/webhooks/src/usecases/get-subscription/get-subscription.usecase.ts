import { Injectable } from '@nestjs/common';
import { AppException, NotFoundException } from '@app/common';
import { WalletAuthContext } from '@app/auth';
import { WebhookSubscriptionEntity } from '../../entities/webhook-subscription.entity';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';

/** A subscription that is not deleted; `owned`: one the signing agent owns (delete, the delivery log, redelivery). */
@Injectable()
export class GetSubscription {
  constructor(private readonly repo: WebhookSubscriptionsRepository) {}

  async execute(id: string): Promise<WebhookSubscriptionEntity> {
    const w = await this.repo.findById(id);
    if (!w || w.status === 'deleted') throw new NotFoundException('WEBHOOK_NOT_FOUND', 'Webhook', id);
    return w;
  }

  async owned(id: string, auth: WalletAuthContext): Promise<WebhookSubscriptionEntity> {
    const w = await this.execute(id);
    if (w.agentId !== auth.agentId) throw new AppException('FORBIDDEN', 'This webhook belongs to another agent');
    return w;
  }
}
