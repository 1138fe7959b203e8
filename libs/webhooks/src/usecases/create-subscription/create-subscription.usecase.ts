import { Injectable } from '@nestjs/common';
import { AppException, newId, ValidationException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { EventType } from '@app/outbox';
import { OutboundUrlPolicy } from '@app/outbound';
import { WebhookSubscriptionEntity } from '../../entities/webhook-subscription.entity';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';
import { GetSubscription } from '../get-subscription/get-subscription.usecase';

/** Active subscriptions an agent may have (each event fans out to all of them). */
export const MAX_ACTIVE_WEBHOOKS = 20;

export interface CreateWebhook {
  agentId: string;
  url: string;
  events: EventType[];
  secret?: string;
}

/** `POST /webhooks` (wallet-signed): subscribes a URL to the agent's events, at most MAX_ACTIVE_WEBHOOKS active. */
@Injectable()
export class CreateSubscription {
  constructor(
    private readonly repo: WebhookSubscriptionsRepository,
    private readonly walletAuth: WalletAuthService,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly tx: TransactionRunner,
    private readonly getSubscription: GetSubscription,
  ) {}

  async execute(auth: WalletAuthContext, input: CreateWebhook): Promise<WebhookSubscriptionEntity> {
    if (auth.agentId !== input.agentId) throw new AppException('FORBIDDEN', 'The signature was made for another agent');
    const errors = await this.urlPolicy.fieldErrors({ url: input.url });
    if (errors.length) throw new ValidationException(errors);
    const id = newId('wh');
    await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      // Serialises creates per agent so the cap holds under concurrency.
      await this.repo.lockAgentCreates(m, input.agentId);
      if ((await this.repo.countActive(m, input.agentId)) >= MAX_ACTIVE_WEBHOOKS) {
        throw new AppException(
          'INVALID_STATE',
          `An agent can have at most ${MAX_ACTIVE_WEBHOOKS} active webhooks; delete one first`,
          { limit: MAX_ACTIVE_WEBHOOKS },
        );
      }
      await this.repo.insert(m, {
        id,
        agentId: input.agentId,
        url: input.url,
        events: [...new Set(input.events)],
        secret: input.secret ?? null,
      });
    });
    return this.getSubscription.execute(id);
  }
}
