import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform's hot ledger accounts in shards (libs/ledger/src/ledger-shards.ts): `world:chain` and
 * `platform:revenue` become `<code>:0` ... `<code>:15` (LEDGER_SHARDS, default 16; a larger setting
 * creates the other shards on first use). Each account's balance moves into its shards by one
 * balanced posting (`ledger.sharded`, the remainder of the division on shard 0), so no total
 * changes and every entry chains; the old row stays, at zero, and is summed with its shards like
 * any row of its kind. `ix_ledger_accounts_shards`: a sharded account's shards by kind.
 */
const ACCOUNTS = `(VALUES ('world:chain', 'world', NULL::bigint), ('platform:revenue', 'revenue', 0::bigint)) AS t(code, kind, mn)`;
const SHARDS = 16;

/** One posting per account: its balance split over its shards (up), or its shards' balances joined back into it (down). */
const moveSql = (direction: 'split' | 'join') => `DO $$
  DECLARE a record; bal bigint; q bigint; amt bigint; codes text[]; amounts bigint[]; n int;
  BEGIN
    FOR a IN SELECT * FROM ${ACCOUNTS} LOOP
      ${
        direction === 'split'
          ? `INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance, max_balance)
               SELECT gen_random_uuid(), a.code || ':' || i, a.kind, NULL, a.mn, NULL FROM generate_series(0, ${SHARDS - 1}) i
               ON CONFLICT (code) DO NOTHING;
             SELECT coalesce(balance, 0) INTO bal FROM ledger_accounts WHERE code = a.code FOR UPDATE;
             CONTINUE WHEN coalesce(bal, 0) = 0;
             q := bal / ${SHARDS};
             codes := ARRAY[a.code]; amounts := ARRAY[-bal];
             FOR i IN 0..${SHARDS - 1} LOOP
               amt := q + CASE WHEN i = 0 THEN bal - q * ${SHARDS} ELSE 0 END;
               IF amt <> 0 THEN codes := codes || (a.code || ':' || i); amounts := amounts || amt; END IF;
             END LOOP;`
          : `PERFORM 1 FROM ledger_accounts WHERE kind = a.kind ORDER BY id FOR UPDATE;
             SELECT array_agg(code ORDER BY code), array_agg(-balance ORDER BY code), sum(balance)::bigint INTO codes, amounts, bal
               FROM ledger_accounts WHERE kind = a.kind AND code <> a.code AND balance <> 0;
             CONTINUE WHEN codes IS NULL;
             IF bal <> 0 THEN codes := codes || a.code; amounts := amounts || bal; END IF;`
      }
      n := array_length(codes, 1);
      PERFORM ledger_post(gen_random_uuid(), 'ledger.${direction === 'split' ? 'sharded' : 'unsharded'}', a.code || '@' || now()::text,
        jsonb_build_object('shards', ${SHARDS}), codes, array_fill(a.kind, ARRAY[n]), array_fill(NULL::text, ARRAY[n]),
        array_fill(a.mn, ARRAY[n]), array_fill(NULL::bigint, ARRAY[n]), amounts);
    END LOOP;
  END $$`;

export class LedgerShards1764140000000 implements MigrationInterface {
  name = 'LedgerShards1764140000000';
  /** The index is built CONCURRENTLY (postings go on meanwhile), so no transaction around the migration: each statement is its own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ix_ledger_accounts_shards" ON "ledger_accounts" ("kind") WHERE "kind" IN ('world', 'revenue')`,
    );
    await q.query(moveSql('split'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(moveSql('join'));
    await q.query(`DROP INDEX IF EXISTS "ix_ledger_accounts_shards"`);
  }
}
