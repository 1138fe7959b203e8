import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets the platform makes for itself, each with one purpose and no operator setting: 32 random bytes
 * written by the first process that needs one (`INSERT ... ON CONFLICT DO NOTHING`), read by all the
 * others. The first is `console-sign-in`, the HMAC key of the console's sign-in nonces (it was derived
 * from the chain-token seed). Deleting a row rotates that key (what it made before stops checking).
 */
export class PlatformSecrets1764270000000 implements MigrationInterface {
  name = 'PlatformSecrets1764270000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "platform_secrets" (
      "name" varchar(64) NOT NULL, "secret" bytea NOT NULL, "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_platform_secrets" PRIMARY KEY ("name"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "platform_secrets"`);
  }
}
