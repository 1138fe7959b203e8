import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { SubscriptionFailures, WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { FailedSubscriptionRow, WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';

export type FailedSubscription = FailedSubscriptionRow & SubscriptionFailures;

/**
 * `GET /admin/webhooks/failed`: subscriptions whose deliveries stopped (a 410, or a delivery's last
 * attempt failed), most recently failed first, with their failed attempts. Never the secret.
 */
@Injectable()
export class ListFailedSubscriptions {
  constructor(
    private readonly subscriptions: WebhookSubscriptionsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(page: Page): Promise<{ webhooks: FailedSubscription[]; total: number }> {
    const { webhooks, total } = await this.subscriptions.listFailed(page);
    const failures = await this.deliveries.failures(webhooks.map((w) => w.id));
    const none: SubscriptionFailures = {
      failedAttempts: 0,
      lastError: null,
      lastResponseStatus: null,
      lastAttemptAt: null,
    };
    return { webhooks: webhooks.map((w) => ({ ...w, ...(failures.get(w.id) ?? none) })), total };
  }
}
