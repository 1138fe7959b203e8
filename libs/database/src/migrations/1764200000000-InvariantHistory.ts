import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `invariant_checks`: the history of the scheduled invariant check, for the operator's
 * `GET /admin/invariants`. Written in the statement that updates `invariant_status`, only when a
 * result differs from the last row kept (ok, or the set of failed invariants) or the last row is
 * an hour old; rows older than 7 days are pruned by the worker's `invariant-checks.prune`.
 */
export class InvariantHistory1764200000000 implements MigrationInterface {
  name = 'InvariantHistory1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "invariant_checks" (
      "id" bigserial NOT NULL,
      "ok" boolean NOT NULL,
      "failed" text array NOT NULL DEFAULT '{}',
      "violations" jsonb NOT NULL DEFAULT '[]',
      "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "pk_invariant_checks" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_invariant_checks_checked_at" ON "invariant_checks" ("checked_at", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "invariant_checks"`);
  }
}
