import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Disputes (resolutions §7).
 *
 * - `disputes` (`dsp_`): one per transaction (`ux_disputes_transaction`), the frozen earnings and the
 *   part of them the platform advanced (`advanced_amount`: what the agent's available balance lacked,
 *   owed by the agent), the agent's answer, the stored resolution and the facts the platform already
 *   held about the execution (`platform_evidence`). The sweeper's index: pending disputes by deadline.
 * - `ledger_credit_agent`: earnings reaching an agent (an escrow release, a dispute's release) repay
 *   what the agent owes first (`agent:<id>:owed`), the rest becomes available. One statement: it
 *   locks the source, available and owed accounts in id order (as `ledger_post` would), reads the
 *   debt under that lock, and posts; so a release costs no extra round trip and two releases
 *   never repay the same debt twice.
 * - Lock order of ledger accounts: the platform's accounts and escrows first (`world`, `revenue`,
 *   `escrow`: what a charge locks in its first statement), then every other account, each group in id
 *   order (`ledger_post`, `ledger_credit_agent`, `LedgerService.lockBalances`). A charge locks its
 *   escrow and the platform's accounts, then releases into available and owed; a release locks the
 *   escrow, then available and owed; a dispute's resolution takes revenue and the agent's other
 *   accounts: with a plain id order one of them could hold available while another held revenue and
 *   wait for it (the release-versus-freeze race test deadlocked). `ledger_post` is rewritten in place
 *   (its ORDER BY only).
 * - `agent_stats.disputes_split`: a split resolution counted like the other outcomes, so analytics can
 *   tell pending disputes from resolved ones.
 */
/** The lock order of ledger accounts (also in LedgerService.lockBalances). */
const LOCK_ORDER = `(kind NOT IN ('world', 'revenue', 'escrow')), id`;
const ID_ORDER = 'ORDER BY id FOR UPDATE';
const PHASE_ORDER = `ORDER BY ${LOCK_ORDER} FOR UPDATE`;

/** Rewrites ledger_post's lock statements from one order to the other (the rest of the function stays as migration LedgerPostFunction wrote it). */
async function relockLedgerPost(q: QueryRunner, from: string, to: string): Promise<void> {
  const [{ def }] = await q.query(
    `SELECT pg_get_functiondef('ledger_post(uuid, text, text, jsonb, text[], text[], text[], bigint[], bigint[], bigint[])'::regprocedure) AS def`,
  );
  const rewritten = (def as string).split(from).join(to);
  if (rewritten.split(to).length !== 3)
    throw new Error('ledger_post does not have the two lock statements this migration rewrites');
  await q.query(rewritten);
}

/**
 * `reputation_apply` as migration Reputation wrote it, counting split outcomes in
 * `agent_stats.disputes_split` when `countSplit` (the down migration restores the version without).
 */
export function reputationApply(countSplit: boolean): string {
  const split = (sql: string) => (countSplit ? sql : '');
  return `CREATE OR REPLACE FUNCTION reputation_apply(p_agent uuid, p_type text, p_delta integer, p_ref text) RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE before integer; after integer;
      BEGIN
        SELECT reputation_score INTO before FROM agents WHERE id = p_agent FOR UPDATE;
        IF NOT FOUND THEN RETURN NULL; END IF;
        after := least(100, greatest(0, before + p_delta));
        UPDATE agents SET reputation_score = after,
               execution_count = execution_count + (p_type = 'execution.completed')::int,
               status = CASE WHEN p_delta < 0 AND after = 0 THEN 'suspended' ELSE status END,
               suspended_reason = CASE WHEN p_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation reached 0' ELSE suspended_reason END
         WHERE id = p_agent;
        INSERT INTO reputation_events (agent_id, type, delta, score, ref_id) VALUES (p_agent, p_type, after - before, after, p_ref);
        IF p_type IN ('execution.failed', 'dispute.filed', 'dispute.agent_wins', 'dispute.client_wins'${split(`, 'dispute.split'`)}) THEN
          INSERT INTO agent_stats AS s (agent_id, failed, disputes_filed, disputes_won, disputes_lost${split(', disputes_split')})
            VALUES (p_agent, (p_type = 'execution.failed')::int, (p_type = 'dispute.filed')::int, (p_type = 'dispute.agent_wins')::int,
                    (p_type = 'dispute.client_wins')::int${split(`, (p_type = 'dispute.split')::int`)})
            ON CONFLICT (agent_id) DO UPDATE SET failed = s.failed + EXCLUDED.failed, disputes_filed = s.disputes_filed + EXCLUDED.disputes_filed,
              disputes_won = s.disputes_won + EXCLUDED.disputes_won, disputes_lost = s.disputes_lost + EXCLUDED.disputes_lost${split(`,
              disputes_split = s.disputes_split + EXCLUDED.disputes_split`)};
        END IF;
        RETURN after;
      END $$`;
}

export class Disputes1763970000000 implements MigrationInterface {
  name = 'Disputes1763970000000';

  async up(q: QueryRunner): Promise<void> {
    await relockLedgerPost(q, ID_ORDER, PHASE_ORDER);
    await q.query(`CREATE TABLE "disputes" (
      "id" character varying(40) NOT NULL,
      "transaction_id" character varying(40) NOT NULL,
      "client_wallet" character varying(42) NOT NULL,
      "agent_id" uuid NOT NULL,
      "status" character varying(16) NOT NULL DEFAULT 'pending',
      "reason" text NOT NULL,
      "evidence" text,
      "agent_response" text,
      "agent_evidence" text,
      "responded_at" TIMESTAMP WITH TIME ZONE,
      "frozen_amount" bigint NOT NULL,
      "advanced_amount" bigint NOT NULL DEFAULT '0',
      "frozen_from" character varying(16) NOT NULL,
      "resolution" jsonb,
      "platform_evidence" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "respond_by" TIMESTAMP WITH TIME ZONE NOT NULL,
      "resolved_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "ck_disputes_status" CHECK ("status" IN ('pending', 'responded', 'resolved')),
      CONSTRAINT "ck_disputes_amounts" CHECK ("frozen_amount" >= 0 AND "advanced_amount" >= 0 AND "advanced_amount" <= "frozen_amount"),
      CONSTRAINT "ck_disputes_frozen_from" CHECK ("frozen_from" IN ('escrow', 'available')),
      CONSTRAINT "ck_disputes_resolved" CHECK (("status" = 'resolved') = ("resolution" IS NOT NULL AND "resolved_at" IS NOT NULL)),
      CONSTRAINT "pk_disputes" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_disputes_transaction" ON "disputes" ("transaction_id")`);
    await q.query(`CREATE INDEX "ix_disputes_agent_created" ON "disputes" ("agent_id", "created_at", "id")`);
    await q.query(
      `CREATE INDEX "ix_disputes_pending_respond_by" ON "disputes" ("respond_by") WHERE "status" = 'pending'`,
    );

    await q.query(`CREATE FUNCTION ledger_credit_agent(p_id uuid, p_code text, p_ref_id text, p_metadata jsonb, p_codes text[], p_kinds text[],
        p_owners text[], p_mins bigint[], p_maxs bigint[], p_amount bigint) RETURNS jsonb LANGUAGE plpgsql AS $$
      -- p_codes: [source, available, owed]; p_amount moves out of the source, repaying the debt first.
      DECLARE debt bigint; repay bigint; codes text[] := ARRAY[p_codes[1]]; kinds text[] := ARRAY[p_kinds[1]]; owners text[] := ARRAY[p_owners[1]];
        mins bigint[] := ARRAY[p_mins[1]]; maxs bigint[] := ARRAY[p_maxs[1]]; amounts bigint[] := ARRAY[-p_amount]; result jsonb;
      BEGIN
        PERFORM 1 FROM ledger_accounts WHERE code = ANY(p_codes) ORDER BY ${LOCK_ORDER} FOR UPDATE;
        SELECT -balance INTO debt FROM ledger_accounts WHERE code = p_codes[3];
        repay := least(p_amount, greatest(coalesce(debt, 0), 0));
        IF repay > 0 THEN
          codes := codes || p_codes[3]; kinds := kinds || p_kinds[3]; owners := owners || p_owners[3]; mins := mins || p_mins[3]; maxs := maxs || p_maxs[3];
          amounts := amounts || repay;
        END IF;
        IF p_amount - repay > 0 THEN
          codes := codes || p_codes[2]; kinds := kinds || p_kinds[2]; owners := owners || p_owners[2]; mins := mins || p_mins[2]; maxs := maxs || p_maxs[2];
          amounts := amounts || (p_amount - repay);
        END IF;
        result := ledger_post(p_id, p_code, p_ref_id, p_metadata || jsonb_build_object('repaid', repay::text), codes, kinds, owners, mins, maxs, amounts);
        RETURN result || jsonb_build_object('repaid', repay::text);
      END $$`);

    await q.query(`ALTER TABLE "agent_stats" ADD "disputes_split" bigint NOT NULL DEFAULT '0'`);
    await q.query(reputationApply(true));
    await q.query(`UPDATE agent_stats s SET disputes_split = e.n FROM (SELECT agent_id, count(*) AS n FROM reputation_events WHERE type = 'dispute.split' GROUP BY agent_id) e
      WHERE s.agent_id = e.agent_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(reputationApply(false));
    await q.query(`ALTER TABLE "agent_stats" DROP COLUMN "disputes_split"`);
    await relockLedgerPost(q, PHASE_ORDER, ID_ORDER);
    await q.query(
      `DROP FUNCTION ledger_credit_agent(uuid, text, text, jsonb, text[], text[], text[], bigint[], bigint[], bigint)`,
    );
    await q.query(`DROP TABLE "disputes"`);
  }
}
