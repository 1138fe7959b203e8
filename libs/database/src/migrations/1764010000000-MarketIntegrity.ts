import { MigrationInterface, QueryRunner } from 'typeorm';
import { reputationApply } from './1763970000000-Disputes';

/**
 * Market integrity (resolutions §4, §6, §7): nobody profits from playing both sides.
 * - `agent_debts`: what an agent owes because a dispute refunded earnings it had already withdrawn.
 *   The platform no longer advances that part: the debt is the agent's to the payer
 *   (`creditor_wallet`), repaid from its later earnings before anything else and refunded to the
 *   payer as it comes in (`repaid`, then `refunded`). Only an admin's resolution advances it
 *   (`creditor_wallet` NULL: the platform paid the payer and is repaid itself). One debt per dispute.
 * - `disputes.advanced_amount` now records an admin's advance, so it no longer has to fit in what
 *   was frozen.
 * - `agents.suspended_by`: `reputation` (a score that reached 0: stops executions, not withdrawals)
 *   or `admin` (stops both).
 * - `reputation_events.payer`: the wallet whose payment (or dispute) caused the change, so one payer
 *   adds at most a capped amount a day to one agent and penalizes it at most once an interval, and
 *   a payment by the agent's own wallet moves nothing. `reputation_apply` takes the payer and both
 *   limits; its index finds a payer's recent changes of an agent in at most `cap` rows.
 */
export class MarketIntegrity1764010000000 implements MigrationInterface {
  name = 'MarketIntegrity1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "agent_debts" (
      "id" character varying(40) NOT NULL,
      "agent_id" uuid NOT NULL,
      "dispute_id" character varying(40) NOT NULL,
      "transaction_id" character varying(40) NOT NULL,
      "creditor_wallet" character varying(42),
      "amount" bigint NOT NULL,
      "repaid" bigint NOT NULL DEFAULT '0',
      "refunded" bigint NOT NULL DEFAULT '0',
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "ck_agent_debts_amounts" CHECK ("amount" > 0 AND "repaid" >= 0 AND "repaid" <= "amount" AND "refunded" >= 0 AND "refunded" <= "repaid"),
      CONSTRAINT "ck_agent_debts_platform" CHECK ("creditor_wallet" IS NOT NULL OR "refunded" = 0),
      CONSTRAINT "pk_agent_debts" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_agent_debts_dispute" ON "agent_debts" ("dispute_id")`);
    await q.query(
      `CREATE INDEX "ix_agent_debts_open" ON "agent_debts" ("agent_id", "created_at", "id") WHERE "repaid" < "amount"`,
    );
    // What the platform advanced before this version stays the platform's claim on the agent: one
    // debt per dispute that advanced, repaid oldest first by what the agent's owed account has
    // already paid back (advanced in all + the balance, which is minus what is still owed).
    await q.query(`INSERT INTO agent_debts (id, agent_id, dispute_id, transaction_id, creditor_wallet, amount, repaid, created_at)
      SELECT 'dbt_' || substr(d.id, 5), d.agent_id, d.id, d.transaction_id, NULL, d.advanced_amount,
             least(d.advanced_amount, greatest(0, o.paid_back - (sum(d.advanced_amount) OVER w - d.advanced_amount))), d.created_at
        FROM disputes d
        JOIN (SELECT x.agent_id, sum(x.advanced_amount) + coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.code = 'agent:' || x.agent_id || ':owed'), 0) AS paid_back
                FROM disputes x WHERE x.advanced_amount > 0 GROUP BY x.agent_id) o ON o.agent_id = d.agent_id
       WHERE d.advanced_amount > 0
      WINDOW w AS (PARTITION BY d.agent_id ORDER BY d.created_at, d.id)`);

    await q.query(`ALTER TABLE "disputes" DROP CONSTRAINT "ck_disputes_amounts"`);
    await q.query(
      `ALTER TABLE "disputes" ADD CONSTRAINT "ck_disputes_amounts" CHECK ("frozen_amount" >= 0 AND "advanced_amount" >= 0)`,
    );

    await q.query(`ALTER TABLE "agents" ADD "suspended_by" character varying(16)`);
    await q.query(
      `UPDATE agents SET suspended_by = CASE WHEN suspended_reason = 'reputation reached 0' THEN 'reputation' ELSE 'admin' END WHERE status = 'suspended'`,
    );
    await q.query(
      `ALTER TABLE "agents" ADD CONSTRAINT "ck_agents_suspended_by" CHECK ("suspended_by" IS NULL OR "suspended_by" IN ('reputation', 'admin'))`,
    );

    await q.query(`ALTER TABLE "reputation_events" ADD "payer" character varying(42)`);
    await q.query(
      `CREATE INDEX "ix_reputation_events_payer" ON "reputation_events" ("agent_id", "payer", "created_at") WHERE "payer" IS NOT NULL AND "delta" <> 0`,
    );

    await q.query(`DROP FUNCTION reputation_apply(uuid, text, integer, text)`);
    // p_payer: who caused it (NULL: the platform, e.g. a dispute's resolution); p_cap: the most one payer
    // adds in a rolling day; p_interval_s: one payer's penalties count once in this window. The event
    // records the change applied (0 when a rule or the clamp took it away).
    await q.query(MARKET_INTEGRITY_REPUTATION_APPLY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION reputation_apply(uuid, text, integer, text, text, integer, integer)`);
    // The version migration Disputes wrote (4 arguments, counting splits).
    await q.query(reputationApply(true).replace('CREATE OR REPLACE FUNCTION', 'CREATE FUNCTION'));
    await q.query(`DROP INDEX "ix_reputation_events_payer"`);
    await q.query(`ALTER TABLE "reputation_events" DROP COLUMN "payer"`);
    await q.query(`ALTER TABLE "agents" DROP CONSTRAINT "ck_agents_suspended_by"`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "suspended_by"`);
    await q.query(`ALTER TABLE "disputes" DROP CONSTRAINT "ck_disputes_amounts"`);
    await q.query(
      `ALTER TABLE "disputes" ADD CONSTRAINT "ck_disputes_amounts" CHECK ("frozen_amount" >= 0 AND "advanced_amount" >= 0 AND "advanced_amount" <= "frozen_amount") NOT VALID`,
    );
    // Debts to payers and admin advances since: owed stays in the ledger; the table goes.
    await q.query(`DROP TABLE "agent_debts"`);
  }
}

/** This migration's `reputation_apply` (7 arguments), which migration ReputationWeight's down restores. */
export const MARKET_INTEGRITY_REPUTATION_APPLY = `CREATE FUNCTION reputation_apply(p_agent uuid, p_type text, p_delta integer, p_ref text, p_payer text, p_cap integer, p_interval_s integer)
      RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE before integer; after integer; own text; v_delta integer := p_delta; given integer; v_payer text := lower(p_payer); v_self boolean;
      BEGIN
        SELECT reputation_score, lower(wallet) INTO before, own FROM agents WHERE id = p_agent FOR UPDATE;
        IF NOT FOUND THEN RETURN NULL; END IF;
        v_self := v_payer IS NOT NULL AND v_payer = own;
        IF v_self THEN
          v_delta := 0;
        ELSIF v_payer IS NOT NULL AND v_delta > 0 THEN
          SELECT coalesce(sum(e.delta), 0) INTO given FROM (
            SELECT r.delta FROM reputation_events r WHERE r.agent_id = p_agent AND r.payer = v_payer AND r.delta > 0
               AND r.created_at > now() - interval '1 day' ORDER BY r.created_at DESC LIMIT greatest(p_cap, 0)) e;
          v_delta := least(v_delta, greatest(p_cap - given, 0));
        ELSIF v_payer IS NOT NULL AND v_delta < 0 AND EXISTS (
            SELECT 1 FROM reputation_events r WHERE r.agent_id = p_agent AND r.payer = v_payer AND r.delta < 0
               AND r.created_at > now() - make_interval(secs => p_interval_s)) THEN
          v_delta := 0;
        END IF;
        after := least(100, greatest(0, before + v_delta));
        UPDATE agents SET reputation_score = after,
               execution_count = execution_count + (p_type = 'execution.completed' AND NOT v_self)::int,
               status = CASE WHEN v_delta < 0 AND after = 0 THEN 'suspended' ELSE status END,
               suspended_reason = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation reached 0' ELSE suspended_reason END,
               suspended_by = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation' ELSE suspended_by END
         WHERE id = p_agent;
        INSERT INTO reputation_events (agent_id, type, delta, score, ref_id, payer) VALUES (p_agent, p_type, after - before, after, p_ref, v_payer);
        IF p_type IN ('execution.failed', 'dispute.filed', 'dispute.agent_wins', 'dispute.client_wins', 'dispute.split') THEN
          INSERT INTO agent_stats AS s (agent_id, failed, disputes_filed, disputes_won, disputes_lost, disputes_split)
            VALUES (p_agent, (p_type = 'execution.failed')::int, (p_type = 'dispute.filed')::int, (p_type = 'dispute.agent_wins')::int,
                    (p_type = 'dispute.client_wins')::int, (p_type = 'dispute.split')::int)
            ON CONFLICT (agent_id) DO UPDATE SET failed = s.failed + EXCLUDED.failed, disputes_filed = s.disputes_filed + EXCLUDED.disputes_filed,
              disputes_won = s.disputes_won + EXCLUDED.disputes_won, disputes_lost = s.disputes_lost + EXCLUDED.disputes_lost,
              disputes_split = s.disputes_split + EXCLUDED.disputes_split;
        END IF;
        RETURN after;
      END $$`;
