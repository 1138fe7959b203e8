import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chain stays open while its root's caller holds a valid token: `held_until` is the latest expiry
 * of a token handed to that caller (null: none yet), written before the token is handed out. A
 * nullable column without a default: no rewrite of the table.
 */
export class ChainHeldOpen1764130000000 implements MigrationInterface {
  name = 'ChainHeldOpen1764130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chains" ADD "held_until" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chains" DROP COLUMN "held_until"`);
  }
}
