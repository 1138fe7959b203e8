import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException, Clock, newId, NotFoundException, Page, ValidationException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { EventType } from '@app/outbox';
import { OutboundUrlPolicy } from '@app/outbound';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { DeliveryService } from './delivery.service';

/** Active subscriptions an agent may have (each event fans out to all of them). */
export const MAX_ACTIVE_WEBHOOKS = 20;

export interface CreateWebhook {
  agentId: string;
  url: string;
  events: EventType[];
  secret?: string;
}

/** Webhook subscriptions: created and deleted by the agent's wallet, listed publicly without secrets. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly walletAuth: WalletAuthService,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly delivery: DeliveryService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async create(auth: WalletAuthContext, input: CreateWebhook): Promise<WebhookSubscriptionEntity> {
    if (auth.agentId !== input.agentId) throw new AppException('FORBIDDEN', 'The signature was made for another agent');
    const errors = await this.urlPolicy.fieldErrors({ url: input.url });
    if (errors.length) throw new ValidationException(errors);
    const id = newId('wh');
    await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      // Serialises creates per agent so the cap holds under concurrency.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1))`, [input.agentId]);
      const [{ n }] = await m.query(
        `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE agent_id = $1 AND status = 'active'`,
        [input.agentId],
      );
      if (n >= MAX_ACTIVE_WEBHOOKS) {
        throw new AppException(
          'INVALID_STATE',
          `An agent can have at most ${MAX_ACTIVE_WEBHOOKS} active webhooks; delete one first`,
          { limit: MAX_ACTIVE_WEBHOOKS },
        );
      }
      await m.query(
        `INSERT INTO webhook_subscriptions (id, agent_id, url, events, secret, status) VALUES ($1, $2, $3, $4, $5, 'active')`,
        [id, input.agentId, input.url, [...new Set(input.events)], input.secret ?? null],
      );
    });
    return this.get(id);
  }

  async get(id: string): Promise<WebhookSubscriptionEntity> {
    const w = await this.dataSource.manager.findOne(WebhookSubscriptionEntity, { where: { id } });
    if (!w || w.status === 'deleted') throw new NotFoundException('WEBHOOK_NOT_FOUND', 'Webhook', id);
    return w;
  }

  /** A subscription the signing agent owns (for delete, the delivery log and redelivery). */
  async owned(id: string, auth: WalletAuthContext): Promise<WebhookSubscriptionEntity> {
    const w = await this.get(id);
    if (w.agentId !== auth.agentId) throw new AppException('FORBIDDEN', 'This webhook belongs to another agent');
    return w;
  }

  async list(agentId: string, page: Page): Promise<{ webhooks: WebhookSubscriptionEntity[]; total: number }> {
    const [webhooks, total] = await this.dataSource.manager
      .createQueryBuilder(WebhookSubscriptionEntity, 'w')
      .where('w.agent_id = :agentId AND w.status <> :deleted', { agentId, deleted: 'deleted' })
      .orderBy('w.created_at', 'DESC')
      .addOrderBy('w.id', 'DESC')
      .take(page.limit)
      .skip(page.offset)
      .getManyAndCount();
    return { webhooks, total };
  }

  /** The delivery log of a subscription the signing agent owns. */
  async deliveries(
    id: string,
    auth: WalletAuthContext,
    page: Page,
  ): Promise<{ deliveries: WebhookDeliveryEntity[]; total: number }> {
    await this.owned(id, auth);
    return this.delivery.list(id, page);
  }

  /** Sends a past delivery again now (one attempt); the signed message is spent in the same transaction. */
  async redeliver(id: string, deliveryId: string, auth: WalletAuthContext): Promise<WebhookDeliveryEntity> {
    await this.owned(id, auth);
    const created = await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      const row = await this.delivery.redeliver(m, id, deliveryId);
      if (!row) throw new NotFoundException('NOT_FOUND', 'Delivery', deliveryId);
      return row;
    });
    await this.delivery.wake(created, 0);
    return (await this.delivery.get(created))!;
  }

  /** Deletes (keeps the row for the delivery log, `deleted`); attempts not yet sent are cancelled. */
  async remove(id: string, auth: WalletAuthContext): Promise<void> {
    await this.owned(id, auth);
    await this.tx.run(async (m) => {
      await this.walletAuth.consume(m, auth);
      await m.query(`UPDATE webhook_subscriptions SET status = 'deleted', status_changed_at = $2 WHERE id = $1`, [
        id,
        this.clock.now(),
      ]);
      await m.query(
        `UPDATE webhook_deliveries SET status = 'cancelled', error = 'subscription deleted' WHERE subscription_id = $1 AND status = 'pending'`,
        [id],
      );
    });
  }
}
