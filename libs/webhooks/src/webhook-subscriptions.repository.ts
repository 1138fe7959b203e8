import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';

/** A failed subscription as the operator lists it (never its secret). */
export interface FailedSubscriptionRow {
  id: string;
  agentId: string;
  url: string;
  events: string[];
  failureReason: string | null;
  /** When it was marked failed (deliveries stopped). */
  failedAt: Date;
  createdAt: Date;
}

/** The SQL of `webhook_subscriptions`; writes take the caller's transaction. */
@Injectable()
export class WebhookSubscriptionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serialises an agent's creates (transaction-scoped advisory lock), so a cap on them holds under concurrency. */
  async lockAgentCreates(m: Queryable, agentId: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1))`, [agentId]);
  }

  async countActive(m: Queryable, agentId: string): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE agent_id = $1 AND status = 'active'`,
      [agentId],
    );
    return n;
  }

  async insert(
    m: Queryable,
    w: { id: string; agentId: string; url: string; events: string[]; secret: string | null },
  ): Promise<void> {
    await m.query(
      `INSERT INTO webhook_subscriptions (id, agent_id, url, events, secret, status) VALUES ($1, $2, $3, $4, $5, 'active')`,
      [w.id, w.agentId, w.url, w.events, w.secret],
    );
  }

  findById(id: string): Promise<WebhookSubscriptionEntity | null> {
    return this.dataSource.manager.findOne(WebhookSubscriptionEntity, { where: { id } });
  }

  /** An agent's subscriptions that are not deleted, newest first. */
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

  /** Failed subscriptions, most recently failed first (ix_webhook_subscriptions_failed), with their total. */
  async listFailed(page: Page): Promise<{ webhooks: FailedSubscriptionRow[]; total: number }> {
    const [webhooks, [{ total }]] = await Promise.all([
      queryRows<FailedSubscriptionRow>(
        this.dataSource.manager,
        `SELECT id, agent_id AS "agentId", url, events, failure_reason AS "failureReason",
                status_changed_at AS "failedAt", created_at AS "createdAt"
           FROM webhook_subscriptions WHERE status = 'failed' ORDER BY status_changed_at DESC, id LIMIT $1 OFFSET $2`,
        [page.limit, page.offset],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM webhook_subscriptions WHERE status = 'failed'`,
      ),
    ]);
    return { webhooks, total };
  }

  async markDeleted(m: Queryable, id: string, at: Date): Promise<void> {
    await m.query(`UPDATE webhook_subscriptions SET status = 'deleted', status_changed_at = $2 WHERE id = $1`, [
      id,
      at,
    ]);
  }

  /** An active subscription stops: `failed`, with the reason. */
  async markFailed(m: Queryable, id: string, reason: string, at: Date): Promise<void> {
    await m.query(
      `UPDATE webhook_subscriptions SET status = 'failed', failure_reason = $2, status_changed_at = $3 WHERE id = $1 AND status = 'active'`,
      [id, reason, at],
    );
  }

  /** Where an event delivery goes: the subscription's URL, secret and status, and the event's time. */
  async deliveryTarget(
    subscriptionId: string,
    eventId: string,
  ): Promise<{ url: string; secret: string | null; status: string; createdAt: Date } | undefined> {
    const [s] = await queryRows<{ url: string; secret: string | null; status: string; createdAt: Date }>(
      this.dataSource.manager,
      `SELECT s.url, s.secret, s.status, e.created_at AS "createdAt" FROM webhook_subscriptions s, outbox_events e WHERE s.id = $1 AND e.id = $2`,
      [subscriptionId, eventId],
    );
    return s;
  }
}
