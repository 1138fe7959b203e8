import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `claimed(n, what)`: raises SQLSTATE AG001 when a conditional write touched no row, so a lost
 * claim aborts the transaction inside Postgres and the statements pipelined behind it fail
 * with it: `WITH c AS (UPDATE ... RETURNING 1) SELECT claimed(count(*), 'execution') FROM c`.
 */
export class ClaimGuard1763900000000 implements MigrationInterface {
  name = 'ClaimGuard1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION claimed(n bigint, what text) RETURNS bigint LANGUAGE plpgsql AS $$
      BEGIN
        IF n = 0 THEN RAISE EXCEPTION '% was not claimed', what USING ERRCODE = 'AG001'; END IF;
        RETURN n;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION claimed(bigint, text)`);
  }
}
