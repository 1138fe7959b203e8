import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { WebhookSubscriptionEntity } from '../../entities/webhook-subscription.entity';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';

/** `GET /webhooks/agent/:agentId`: an agent's subscriptions, listed publicly (the response leaves out secrets). */
@Injectable()
export class ListSubscriptions {
  constructor(private readonly repo: WebhookSubscriptionsRepository) {}

  execute(agentId: string, page: Page): Promise<{ webhooks: WebhookSubscriptionEntity[]; total: number }> {
    return this.repo.list(agentId, page);
  }
}
