import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One journal posting in one round trip: `ledger_post` does inside Postgres what LedgerService
 * did in five statements (record the transaction once per (code, ref_id), create accounts on
 * first use, lock them in id order, check each leg against its bounds, update balances, write
 * the entries). Fewer round trips also mean the hot platform accounts stay locked for less time.
 * A leg that would leave its bounds raises SQLSTATE LB001 with the account, balance and delta
 * as JSON in DETAIL; LedgerService turns it into LedgerBoundsError.
 */
export class LedgerPostFunction1763890000000 implements MigrationInterface {
  name = 'LedgerPostFunction1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION ledger_post(p_id uuid, p_code text, p_ref_id text, p_metadata jsonb, p_codes text[], p_kinds text[],
        p_owners text[], p_mins bigint[], p_maxs bigint[], p_amounts bigint[]) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        n int := coalesce(array_length(p_codes, 1), 0);
        total bigint := 0;
        existing uuid;
        locked int;
        acc record;
        current_balance bigint;
        ids uuid[] := '{}';
        afters bigint[] := '{}';
        versions bigint[] := '{}';
        balances jsonb := '{}'::jsonb;
      BEGIN
        FOR i IN 1..n LOOP
          IF p_amounts[i] IS NULL OR p_amounts[i] = 0 THEN RAISE EXCEPTION 'ledger posting %/% has a zero leg', p_code, p_ref_id; END IF;
          total := total + p_amounts[i];
        END LOOP;
        IF n < 2 OR n <> array_length(p_amounts, 1) OR total <> 0 THEN
          RAISE EXCEPTION 'unbalanced ledger posting %/%', p_code, p_ref_id;
        END IF;
        INSERT INTO ledger_transactions (id, code, ref_id, metadata) VALUES (p_id, p_code, p_ref_id, p_metadata)
          ON CONFLICT (code, ref_id) DO NOTHING;
        IF NOT FOUND THEN
          SELECT id INTO existing FROM ledger_transactions WHERE code = p_code AND ref_id = p_ref_id;
          RETURN jsonb_build_object('transactionId', existing, 'duplicate', true, 'balances', '{}'::jsonb);
        END IF;
        -- Lock in id order (no deadlocks); create the accounts missing on first use, then lock those too.
        PERFORM 1 FROM ledger_accounts WHERE code = ANY(p_codes) ORDER BY id FOR UPDATE;
        GET DIAGNOSTICS locked = ROW_COUNT;
        IF locked < (SELECT count(DISTINCT c) FROM unnest(p_codes) c) THEN
          INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance, max_balance)
            SELECT DISTINCT ON (c) gen_random_uuid(), c, k, o, mn, mx FROM unnest(p_codes, p_kinds, p_owners, p_mins, p_maxs) AS t(c, k, o, mn, mx)
            ON CONFLICT (code) DO NOTHING;
          PERFORM 1 FROM ledger_accounts WHERE code = ANY(p_codes) ORDER BY id FOR UPDATE;
        END IF;
        FOR i IN 1..n LOOP
          UPDATE ledger_accounts SET balance = balance + p_amounts[i], version = version + 1
           WHERE code = p_codes[i]
             AND (p_mins[i] IS NULL OR balance + p_amounts[i] >= p_mins[i])
             AND (p_maxs[i] IS NULL OR balance + p_amounts[i] <= p_maxs[i])
          RETURNING id, balance, version INTO acc;
          IF NOT FOUND THEN
            SELECT balance INTO current_balance FROM ledger_accounts WHERE code = p_codes[i];
            RAISE EXCEPTION 'ledger account % would leave its bounds', p_codes[i] USING ERRCODE = 'LB001',
              DETAIL = json_build_object('code', p_codes[i], 'balance', current_balance::text, 'delta', p_amounts[i]::text)::text;
          END IF;
          ids := ids || acc.id;
          afters := afters || acc.balance;
          versions := versions || acc.version;
          balances := balances || jsonb_build_object(p_codes[i], acc.balance::text);
        END LOOP;
        INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, account_version)
          SELECT p_id, * FROM unnest(ids, p_amounts, afters, versions);
        RETURN jsonb_build_object('transactionId', p_id, 'duplicate', false, 'balances', balances);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION ledger_post(uuid, text, text, jsonb, text[], text[], text[], bigint[], bigint[], bigint[])`,
    );
  }
}
