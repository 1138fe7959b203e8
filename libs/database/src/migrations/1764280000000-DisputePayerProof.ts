import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a dispute's filer proved it was the payer (issue 52): `disputes.payer_proof` (`signature`, the
 * payer's X-Client-Signature; `payment_header`, the original payment header; NULL: filed before this was
 * recorded) and `disputes.verified`. In evm settlement a payment header can be rebuilt from public chain
 * data, so a filing it alone proves is unverified (false): no reputation at filing, no evidence key, no
 * automatic client_wins at its deadline, until the payer's signature confirms it. Disputes filed before
 * keep the rules they were filed under (true). Only a header filing can be unverified.
 */
export class DisputePayerProof1764280000000 implements MigrationInterface {
  name = 'DisputePayerProof1764280000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "disputes" ADD "payer_proof" character varying(16)`);
    await q.query(`ALTER TABLE "disputes" ADD "verified" boolean NOT NULL DEFAULT true`);
    await q.query(
      `ALTER TABLE "disputes" ADD CONSTRAINT "ck_disputes_payer_proof" CHECK ("payer_proof" IN ('signature', 'payment_header'))`,
    );
    await q.query(
      `ALTER TABLE "disputes" ADD CONSTRAINT "ck_disputes_verified" CHECK ("verified" OR "payer_proof" = 'payment_header')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "disputes" DROP CONSTRAINT "ck_disputes_verified"`);
    await q.query(`ALTER TABLE "disputes" DROP CONSTRAINT "ck_disputes_payer_proof"`);
    await q.query(`ALTER TABLE "disputes" DROP COLUMN "verified"`);
    await q.query(`ALTER TABLE "disputes" DROP COLUMN "payer_proof"`);
  }
}
