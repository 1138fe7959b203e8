import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chain stays open while its root's caller holds a valid token: `held_until` is the latest expiry
 * of a token handed to that caller (null: none yet), written before the token is handed out;
 * `hold_released` once the caller gave its tokens up (closed the chain: no later answer extends the
 * hold). A node's `held`: it was started by a call of the root's caller, or below one (only such
 * nodes may call once the root has ended). Constant defaults: no rewrite of either table.
 */
export class ChainHeldOpen1764130000000 implements MigrationInterface {
  name = 'ChainHeldOpen1764130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chains" ADD "held_until" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "chains" ADD "hold_released" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "chain_nodes" ADD "held" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chain_nodes" DROP COLUMN "held"`);
    await q.query(`ALTER TABLE "chains" DROP COLUMN "hold_released"`);
    await q.query(`ALTER TABLE "chains" DROP COLUMN "held_until"`);
  }
}
