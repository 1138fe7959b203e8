import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Partial indexes for the open sets the operator's reads list (`GET /admin/...`), built CONCURRENTLY
 * (so outside a transaction; a build that failed half-way is dropped and built afresh): suspended
 * agents newest first, disputes awaiting a decision oldest first, failed webhook subscriptions, and
 * each subscription's failed attempts newest first (its last failure, without reading its successes).
 */
export class AdminReadIndexes1764220000000 implements MigrationInterface {
  name = 'AdminReadIndexes1764220000000';
  transaction = false;

  private readonly indexes: [string, string][] = [
    ['ix_agents_suspended', `"agents" ("suspended_at" DESC NULLS LAST, "id") WHERE "status" = 'suspended'`],
    ['ix_disputes_open_created', `"disputes" ("created_at", "id") WHERE "status" <> 'resolved'`],
    [
      'ix_webhook_subscriptions_failed',
      `"webhook_subscriptions" ("status_changed_at" DESC, "id") WHERE "status" = 'failed'`,
    ],
    [
      'ix_webhook_deliveries_failed',
      `"webhook_deliveries" ("subscription_id", "attempted_at" DESC) WHERE "status" = 'failed'`,
    ],
  ];

  async up(q: QueryRunner): Promise<void> {
    for (const [name, on] of this.indexes) {
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
      await q.query(`CREATE INDEX CONCURRENTLY "${name}" ON ${on}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...this.indexes].reverse()) await q.query(`DROP INDEX IF EXISTS "${name}"`);
  }
}
