import { MigrationInterface, QueryRunner } from 'typeorm';
import { REPUTATION_WEIGHT_REPUTATION_APPLY } from './1764230000000-ReputationWeight';

/**
 * A dispute filed is an accusation, not a verdict (issue 52, review H2): in the weighted model the filing
 * moves nothing and its penalty lands with the loss; `reputation_apply` gains
 * - `p_funded_cap`: funded payers' penalties take at most this from one agent per `p_interval_s`, in all
 *   (REPUTATION_FUNDED_PENALTY_CAP; its index finds them in at most `cap` rows), as unfunded payers' do;
 * - `p_verdict`: the platform's own part of a change (an admin's verdict), added past the payer's limits
 *   (still nothing for a price-0 run or the agent's own wallet);
 * - in the weighted model, a change that takes an agent suspended by its reputation back above 0 reinstates it
 *   (an admin's suspension stays).
 */
export class ReputationVerdicts1764291000000 implements MigrationInterface {
  name = 'ReputationVerdicts1764291000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "ix_reputation_events_funded" ON "reputation_events" ("agent_id", "created_at") WHERE "funded" = true AND "delta" < 0`,
    );
    await q.query(
      `DROP FUNCTION reputation_apply(uuid, text, integer, text, text, bigint, text, bigint, boolean, integer, integer, bigint, integer)`,
    );
    await q.query(REPUTATION_VERDICTS_REPUTATION_APPLY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION reputation_apply(uuid, text, integer, text, text, bigint, text, bigint, boolean, integer, integer, bigint, integer, integer, integer)`,
    );
    await q.query(REPUTATION_WEIGHT_REPUTATION_APPLY);
    await q.query(`DROP INDEX "ix_reputation_events_funded"`);
  }
}

/**
 * ReputationWeight's function, with p_funded_cap (funded payers' penalties capped per agent per interval in
 * all, weighted model), p_verdict (the platform's part, past the payer's limits) and the lifting of a
 * reputation suspension (weighted model). A later migration that redefines it starts from this one.
 */
export const REPUTATION_VERDICTS_REPUTATION_APPLY = `CREATE FUNCTION reputation_apply(p_agent uuid, p_type text, p_delta integer, p_ref text, p_payer text,
    p_stake bigint, p_spender text, p_spend bigint, p_weighted boolean, p_cap integer, p_interval_s integer,
    p_min_spend bigint, p_unfunded_cap integer, p_funded_cap integer, p_verdict integer)
  RETURNS integer LANGUAGE plpgsql AS $$
  DECLARE before integer; after integer; own text; v_delta integer := p_delta; given integer;
    v_payer text := lower(p_payer); v_spender text := lower(p_spender); v_self boolean; v_funded boolean;
    v_status text; v_by text; v_lift boolean;
  BEGIN
    SELECT reputation_score, lower(wallet), status, suspended_by INTO before, own, v_status, v_by FROM agents WHERE id = p_agent FOR UPDATE;
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
      ELSIF p_weighted AND v_funded THEN
        SELECT coalesce(sum(-e.delta), 0) INTO given FROM (
          SELECT r.delta FROM reputation_events r WHERE r.agent_id = p_agent AND r.funded = true AND r.delta < 0
             AND r.created_at > now() - make_interval(secs => p_interval_s) ORDER BY r.created_at DESC
           LIMIT greatest(p_funded_cap, 0)) e;
        v_delta := -least(-v_delta, greatest(p_funded_cap - given, 0));
      END IF;
    END IF;
    IF NOT v_self AND coalesce(p_stake, 0) > 0 THEN
      v_delta := v_delta + coalesce(p_verdict, 0);
    END IF;
    IF v_spender IS NOT NULL AND v_spender <> own AND coalesce(p_spend, 0) <> 0 THEN
      INSERT INTO payer_spend AS s (payer, amount) VALUES (v_spender, p_spend)
        ON CONFLICT (payer) DO UPDATE SET amount = s.amount + EXCLUDED.amount;
      INSERT INTO payer_owner_spend AS s (payer, owner, amount) VALUES (v_spender, own, p_spend)
        ON CONFLICT (payer, owner) DO UPDATE SET amount = s.amount + EXCLUDED.amount;
    END IF;
    after := least(100, greatest(0, before + v_delta));
    v_lift := p_weighted AND v_delta > 0 AND after > 0 AND v_status = 'suspended' AND v_by = 'reputation';
    UPDATE agents SET reputation_score = after,
           execution_count = execution_count + (p_type = 'execution.completed' AND NOT v_self)::int,
           status = CASE WHEN v_delta < 0 AND after = 0 THEN 'suspended' WHEN v_lift THEN 'active' ELSE status END,
           suspended_reason = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation reached 0'
                                   WHEN v_lift THEN NULL ELSE suspended_reason END,
           suspended_by = CASE WHEN v_delta < 0 AND after = 0 AND status <> 'suspended' THEN 'reputation'
                               WHEN v_lift THEN NULL ELSE suspended_by END
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
