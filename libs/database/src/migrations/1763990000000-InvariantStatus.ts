import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `invariant_status`: the result of the worker's scheduled invariant check (G15), one row. While it
 * says a money invariant is violated, payouts (withdrawals, refunds) are not claimed and the api's
 * health reports it; the next passing check resumes them.
 */
export class InvariantStatus1763990000000 implements MigrationInterface {
  name = 'InvariantStatus1763990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "invariant_status" (
      "id" smallint NOT NULL DEFAULT '1',
      "ok" boolean NOT NULL,
      "failed" text array NOT NULL DEFAULT '{}',
      "violations" jsonb NOT NULL DEFAULT '[]',
      "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "ck_invariant_status_single" CHECK ("id" = 1),
      CONSTRAINT "pk_invariant_status" PRIMARY KEY ("id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "invariant_status"`);
  }
}
