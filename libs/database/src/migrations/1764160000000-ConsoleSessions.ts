import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's sign-in (libs/auth/src/console): a wallet signs an EIP-4361 message for this
 * origin, and gets a session for reads, held in an HTTP-only cookie.
 * - `console_sessions` (`cs_`): whose (wallet; the agent when it signed in as one), for which
 *   origin, until when; the cookie's token is kept only as its SHA-256. Revoked: `revoked_at`.
 * - `console_used_nonces`: each sign-in message's nonce, once (kept until it expires).
 */
export class ConsoleSessions1764160000000 implements MigrationInterface {
  name = 'ConsoleSessions1764160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "console_sessions" (
      "id" varchar(40) NOT NULL, "token_hash" char(64) NOT NULL, "wallet" varchar(42) NOT NULL, "agent_id" uuid,
      "origin" varchar(200) NOT NULL, "user_agent" varchar(200), "created_at" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz NOT NULL, "revoked_at" timestamptz,
      CONSTRAINT "pk_console_sessions" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_console_sessions_token" ON "console_sessions" ("token_hash")`);
    await q.query(`CREATE INDEX "ix_console_sessions_wallet" ON "console_sessions" ("wallet", "created_at")`);
    await q.query(`CREATE TABLE "console_used_nonces" (
      "nonce" varchar(96) NOT NULL, "expires_at" timestamptz NOT NULL,
      CONSTRAINT "pk_console_used_nonces" PRIMARY KEY ("nonce"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "console_used_nonces"`);
    await q.query(`DROP TABLE "console_sessions"`);
  }
}
