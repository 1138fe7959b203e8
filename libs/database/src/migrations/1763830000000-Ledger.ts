import { MigrationInterface, QueryRunner } from 'typeorm';

/** The double-entry journal: accounts with CHECK bounds, append-only transactions and entries. */
export class Ledger1763830000000 implements MigrationInterface {
  name = 'Ledger1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "ledger_accounts" (
      "id" uuid NOT NULL,
      "code" character varying(200) NOT NULL,
      "kind" character varying(32) NOT NULL,
      "owner_id" character varying(100),
      "balance" bigint NOT NULL DEFAULT '0',
      "version" bigint NOT NULL DEFAULT '0',
      "min_balance" bigint,
      "max_balance" bigint,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "ck_ledger_accounts_max" CHECK ("max_balance" IS NULL OR "balance" <= "max_balance"),
      CONSTRAINT "ck_ledger_accounts_min" CHECK ("min_balance" IS NULL OR "balance" >= "min_balance"),
      CONSTRAINT "pk_ledger_accounts" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_ledger_accounts_owner" ON "ledger_accounts" ("owner_id")`);
    await q.query(`CREATE UNIQUE INDEX "ux_ledger_accounts_code" ON "ledger_accounts" ("code")`);

    await q.query(`CREATE TABLE "ledger_transactions" (
      "id" uuid NOT NULL,
      "code" character varying(64) NOT NULL,
      "ref_id" character varying(200) NOT NULL,
      "metadata" jsonb NOT NULL DEFAULT '{}',
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "pk_ledger_transactions" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_ledger_transactions_code_ref" ON "ledger_transactions" ("code", "ref_id")`);

    await q.query(`CREATE TABLE "ledger_entries" (
      "id" BIGSERIAL NOT NULL,
      "transaction_id" uuid NOT NULL,
      "account_id" uuid NOT NULL,
      "amount" bigint NOT NULL,
      "balance_after" bigint NOT NULL,
      "account_version" bigint NOT NULL,
      CONSTRAINT "ck_ledger_entries_nonzero" CHECK ("amount" <> 0),
      CONSTRAINT "pk_ledger_entries" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_ledger_entries_transaction" ON "ledger_entries" ("transaction_id")`);
    await q.query(
      `CREATE UNIQUE INDEX "ux_ledger_entries_account_version" ON "ledger_entries" ("account_id", "account_version")`,
    );
    await q.query(`ALTER TABLE "ledger_entries" ADD CONSTRAINT "fk_ledger_entries_transaction"
      FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "ledger_entries" ADD CONSTRAINT "fk_ledger_entries_account"
      FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);

    // Entries and transactions are immutable: mistakes are fixed by correcting transactions.
    await q.query(`CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger % rows are append-only', TG_TABLE_NAME; END $$`);
    await q.query(`CREATE TRIGGER tr_ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`);
    await q.query(`CREATE TRIGGER tr_ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`);
    // At commit, every journal transaction has >= 2 entries summing to zero, whoever wrote it.
    await q.query(`CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE total bigint; n integer;
      BEGIN
        SELECT coalesce(sum(amount), 0), count(*) INTO total, n FROM ledger_entries WHERE transaction_id = NEW.id;
        IF n < 2 OR total <> 0 THEN
          RAISE EXCEPTION 'unbalanced ledger transaction %/% (% entries, sum %)', NEW.code, NEW.ref_id, n, total;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER tr_ledger_transactions_balanced AFTER INSERT ON ledger_transactions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "ledger_entries"`);
    await q.query(`DROP TABLE "ledger_transactions"`);
    await q.query(`DROP TABLE "ledger_accounts"`);
    await q.query(`DROP FUNCTION ledger_check_balanced()`);
    await q.query(`DROP FUNCTION ledger_refuse_change()`);
  }
}
