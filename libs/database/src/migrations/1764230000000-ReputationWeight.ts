import { MigrationInterface, QueryRunner } from 'typeorm';
import { MARKET_INTEGRITY_REPUTATION_APPLY } from './1764010000000-MarketIntegrity';

/**
 * Weight is money at stake, never a wallet count (resolutions §6-§7, issue 52).
 * - `payer_spend` / `payer_owner_spend`: what each payer has paid agora in settled agent fees, in all
 *   and per owner (the wallet that registered the agents paid), kept by `reputation_apply` in the
 *   outcome's transaction (a charge adds its agent fee, a filed dispute takes it back, a resolution
 *   gives back what the agent kept). A payer's own agents are never counted. What a payer paid
 *   "elsewhere" for an agent is its total minus what it paid that agent's owner:
 *   `payer_spend_elsewhere(payer, owner)`, two primary-key reads.
 * - `reputation_events.funded`: whether the payer had paid at least the funded minimum elsewhere
 *   when the change was made (null: the platform decided, or the agent's own wallet). The weighted
 *   model caps the penalties of unfunded payers per agent per interval in total; its index finds
 *   them in at most `cap` rows.
 * - `reputation_apply` takes the money: `p_stake` (the agent fee at stake: 0, a price-0 run, moves
 *   nothing in any mode), the spend change and its wallet, the model, and the limits.
 */
export class ReputationWeight1764230000000 implements MigrationInterface {
  name = 'ReputationWeight1764230000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "payer_spend" (
      "payer" character varying(42) NOT NULL,
      "amount" bigint NOT NULL DEFAULT '0',
      CONSTRAINT "pk_payer_spend" PRIMARY KEY ("payer"))`);
    await q.query(`CREATE TABLE "payer_owner_spend" (
      "payer" character varying(42) NOT NULL,
      "owner" character varying(42) NOT NULL,
      "amount" bigint NOT NULL DEFAULT '0',
      CONSTRAINT "pk_payer_owner_spend" PRIMARY KEY ("payer", "owner"))`);
    // What was settled before this version: agent fees of charges not disputed (or whose dispute the
    // agent won), half of a split one's, nothing of a refunded or pending one; never to one's own agents.
    await q.query(`INSERT INTO payer_owner_spend (payer, owner, amount)
      SELECT lower(t.payer_wallet), lower(a.wallet),
             sum(t.agent_fee - CASE WHEN d.resolution->>'outcome' = 'split' THEN t.agent_fee / 2 ELSE 0 END)
        FROM transactions t JOIN agents a ON a.id = t.providing_agent_id
        LEFT JOIN disputes d ON d.id = t.dispute_id
       WHERE t.status = 'completed' AND lower(t.payer_wallet) <> lower(a.wallet)
       GROUP BY 1, 2 HAVING sum(t.agent_fee) > 0`);
    await q.query(
      `INSERT INTO payer_spend (payer, amount) SELECT payer, sum(amount) FROM payer_owner_spend GROUP BY payer`,
    );
    await q.query(`CREATE FUNCTION payer_spend_elsewhere(p_payer text, p_owner text) RETURNS bigint
      LANGUAGE sql STABLE AS $$
        SELECT coalesce((SELECT amount FROM payer_spend WHERE payer = lower(p_payer)), 0)
             - coalesce((SELECT amount FROM payer_owner_spend WHERE payer = lower(p_payer) AND owner = lower(p_owner)), 0)
      $$`);

    await q.query(`ALTER TABLE "reputation_events" ADD "funded" boolean`);
    await q.query(
      `CREATE INDEX "ix_reputation_events_unfunded" ON "reputation_events" ("agent_id", "created_at") WHERE "funded" = false AND "delta" < 0`,
    );

    await q.query(`DROP FUNCTION reputation_apply(uuid, text, integer, text, text, integer, integer)`);
    await q.query(REPUTATION_WEIGHT_REPUTATION_APPLY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION reputation_apply(uuid, text, integer, text, text, bigint, text, bigint, boolean, integer, integer, bigint, integer)`,
    );
    await q.query(MARKET_INTEGRITY_REPUTATION_APPLY);
    await q.query(`DROP INDEX "ix_reputation_events_unfunded"`);
    await q.query(`ALTER TABLE "reputation_events" DROP COLUMN "funded"`);
    await q.query(`DROP FUNCTION payer_spend_elsewhere(text, text)`);
    await q.query(`DROP TABLE "payer_owner_spend"`);
    await q.query(`DROP TABLE "payer_spend"`);
  }
}

/**
 * p_payer: whose payment or dispute caused it (NULL: the platform decided); its limits apply to it.
 * p_stake: the agent fee at stake (0: a price-0 run, nothing moves). p_spender, p_spend: the change to
 * that wallet's settled spend (kept unless it is the agent's own wallet). p_weighted: the weighted
 * model (gains only from funded payers; unfunded payers' penalties at most p_unfunded_cap per
 * p_interval_s in all). p_cap, p_interval_s: one payer's daily gain cap and penalty interval.
 * p_min_spend: what a funded payer has paid agora to other owners' agents.
 */
export const REPUTATION_WEIGHT_REPUTATION_APPLY = `CREATE FUNCTION reputation_apply(p_agent uuid, p_type text, p_delta integer, p_ref text, p_payer text,
    p_stake bigint, p_spender text, p_spend bigint, p_weighted boolean, p_cap integer, p_interval_s integer,
    p_min_spend bigint, p_unfunded_cap integer)
  RETURNS integer LANGUAGE plpgsql AS $$
  DECLARE before integer; after integer; own text; v_delta integer := p_delta; given integer;
    v_payer text := lower(p_payer); v_spender text := lower(p_spender); v_self boolean; v_funded boolean;
  BEGIN
    SELECT reputation_score, lower(wallet) INTO before, own FROM agents WHERE id = p_agent FOR UPDATE;
    IF NOT FOUND THEN RETURN NULL; END IF;
    v_self := v_payer IS NOT NULL AND v_payer = own;
    IF v_payer IS NOT NULL AND NOT v_self THEN
      v_funded := payer_spend_elsewhere(v_payer, own) >= p_min_spend;
    END IF;
    IF v_self OR coalesce(p_stake, 0) <= 0 THEN
      v_delta := 0;
    ELSIF v_payer IS NOT NULL AND v_delta > 0 THEN
      IF p_weighted AND NOT v_funded THEN
        v_delta := 0;
      ELSE
        SELECT coalesce(sum(e.delta), 0) INTO given FROM (
          SELECT r.delta FROM reputation_events r WHERE r.agent_id = p_agent AND r.payer = v_payer AND r.delta > 0
             AND r.created_at > now() - interval '1 day' ORDER BY r.created_at DESC LIMIT greatest(p_cap, 0)) e;
        v_delta := least(v_delta, greatest(p_cap - given, 0));
      END IF;
    ELSIF v_payer IS NOT NULL AND v_delta < 0 THEN
      IF EXISTS (SELECT 1 FROM reputation_events r WHERE r.agent_id = p_agent AND r.payer = v_payer AND r.delta < 0
                    AND r.created_at > now() - make_interval(secs => p_interval_s)) THEN
        v_delta := 0;
      ELSIF p_weighted AND NOT v_funded THEN
        SELECT coalesce(sum(-e.delta), 0) INTO given FROM (
          SELECT r.delta FROM reputation_events r WHERE r.agent_id = p_agent AND r.funded = false AND r.delta < 0
             AND r.created_at > now() - make_interval(secs => p_interval_s) ORDER BY r.created_at DESC
           LIMIT greatest(p_unfunded_cap, 0)) e;
        v_delta := -least(-v_delta, greatest(p_unfunded_cap - given, 0));
      END IF;
    END IF;
    IF v_spender IS NOT NULL AND v_spender <> own AND coalesce(p_spend, 0) <> 0 THEN
      INSERT INTO payer_spend AS s (payer, amount) VALUES (v_spender, p_spend)
        ON CONFLICT (payer) DO UPDATE SET amount = s.amount + EXCLUDED.amount;
      INSERT INTO payer_owner_spend AS s (payer, owner, amount) VALUES (v_spender, own, p_spend)
        ON CONFLICT (payer, owner) DO UPDATE SET amount = s.amount + EXCLUDED.amount;
    END IF;
    after := least(100, greatest(0, before + v_delta));
    UPDATE agents SET reputation_score = after,
           execution_count = execution_count + (p_type = 'execution.completed' AND NOT v_self)::int,
           status = CASE WHEN v_delta < 0 AND after = 0 THEN 'suspended' ELSE status END,
           suspended_reason = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation reached 0' ELSE suspended_reason END,
           suspended_by = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation' ELSE suspended_by END
     WHERE id = p_agent;
    INSERT INTO reputation_events (agent_id, type, delta, score, ref_id, payer, funded)
      VALUES (p_agent, p_type, after - before, after, p_ref, v_payer, v_funded);
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
