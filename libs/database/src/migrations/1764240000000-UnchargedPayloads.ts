import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Nothing stored for free (issue 52): a run that moved no money (failed, timed out, settlement
 * expired) keeps digests of its payloads and is pruned after UNCHARGED_PAYLOAD_RETENTION_HOURS.
 * The partial index lists the uncharged runs that still hold a payload, oldest first, for that
 * prune (the retention index, ix_executions_payload_kept, would walk every charged row first).
 */
export class UnchargedPayloads1764240000000 implements MigrationInterface {
  name = 'UnchargedPayloads1764240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "ix_executions_uncharged_kept" ON "executions" ("created_at")
        WHERE "payload_pruned_at" IS NULL AND ("status" IN ('failed', 'timeout') OR "settlement_status" = 'settlement_expired')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_executions_uncharged_kept"`);
  }
}
