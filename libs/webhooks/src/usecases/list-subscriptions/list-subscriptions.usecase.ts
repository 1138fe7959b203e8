import { Injectable } from '@nestjs/common';
import type { WalletAuthContext } from '@app/auth';
import { Page } from '@app/common';
import { AppConfig } from '@app/config';
import { WebhookSubscriptionEntity } from '../../entities/webhook-subscription.entity';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';

/**
 * A URL without what may be a receiver's secret: its origin and `/` (`https://hooks.example.com:8443/`),
 * no user info, path, query or fragment. Still a valid absolute URL, so a client parsing the field keeps working.
 */
export function publicWebhookUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/`;
  } catch {
    return '';
  }
}

/**
 * `GET /webhooks/agent/:agentId`: an agent's subscriptions, never with their secrets. Read with the
 * agent's proof (its wallet's signature or its console session: `auth` of that agent) each URL is
 * shown whole; read by anyone else, only its origin (WEBHOOK_LIST_URLS=origin, the default), since a
 * receiver's token often rides in the path or the query. WEBHOOK_LIST_URLS=full shows them all whole.
 */
@Injectable()
export class ListSubscriptions {
  constructor(
    private readonly repo: WebhookSubscriptionsRepository,
    private readonly config: AppConfig,
  ) {}

  async execute(
    agentId: string,
    page: Page,
    auth: WalletAuthContext | null,
  ): Promise<{ webhooks: WebhookSubscriptionEntity[]; total: number }> {
    const { webhooks, total } = await this.repo.list(agentId, page);
    const owner = auth !== null && auth.agentId.toLowerCase() === agentId.toLowerCase();
    if (owner || this.config.webhookListUrls === 'full') return { webhooks, total };
    return { webhooks: webhooks.map((w) => ({ ...w, url: publicWebhookUrl(w.url) })), total };
  }
}
