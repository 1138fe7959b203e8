import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { DecidedDispute, REPUTATION_DELTAS, ReputationEventType, weightedChange } from './reputation.rules';

/** What caused a change of score, in money (resolutions §7: weight is money at stake, never a wallet count). */
export interface ReputationCause {
  /** The wallet whose payment or dispute caused it (null: the platform decided); its limits apply. */
  payer: string | null;
  /** The agent fee at stake (charged; authorized, for a failed run): 0, a price-0 run, moves nothing in any mode. */
  stake: bigint;
  /** A resolution nobody decided (the response window closed): the payer's, in the weighted model only. */
  lapsedFor?: string;
  /** A dispute's resolution: the dispute decided (the weighted model lands the filing's penalty with the loss). */
  dispute?: DecidedDispute;
  /**
   * A chain sub-call: the calling agent. In the weighted model its owner's wallet is the payer (the calling
   * agent caused the outcome, not the client whose budget paid): its standing, its limits, own-wallet rules.
   */
  calledBy?: string;
}

const APPLY = `reputation_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;
/** The payer is the calling agent's owner (a chain sub-call, weighted model): read in the same statement. */
const APPLY_CALLED_BY = APPLY.replace('$5', '(SELECT wallet FROM agents WHERE id = $5::uuid)');

/**
 * Moves an agent's score inside the transaction of the outcome that causes it, through the SQL
 * function `reputation_apply` (migrations Reputation, MarketIntegrity, ReputationWeight,
 * ReputationVerdicts): one statement that locks the agent's row, applies the rules of every mode
 * (a payment by the agent's own wallet or a price-0 run moves nothing; one payer adds at most
 * REPUTATION_PAYER_DAILY_CAP a rolling day and penalizes at most once each REPUTATION_PENALTY_INTERVAL_S) and of the weighted
 * model (REPUTATION_MODEL=weighted: a payer that has not paid FUNDED_PAYER_MIN_SPEND_MICRO to other
 * owners' agents adds nothing, and such payers' penalties take at most REPUTATION_UNFUNDED_PENALTY_CAP
 * per interval from one agent in all, funded payers' at most REPUTATION_FUNDED_PENALTY_CAP; a filing
 * moves nothing until the dispute is lost: weightedChange; a chain sub-call is its calling agent's
 * owner's; a change that takes an agent suspended by its reputation back above 0 reinstates it), clamps
 * to 0-100, writes the event with the delta applied, counts the outcome, and suspends an agent a penalty
 * takes to 0. Concurrent outcomes queue on the agent's row. A payer's settled spend is not kept here: a charge joins it once it has matured
 * (past its dispute filing window, undisputed or its dispute ended; CountMaturedSpend), so it never
 * moves with an outcome (the function's spend arguments are always null and 0).
 */
@Injectable()
export class ReputationRecorder {
  constructor(private readonly config: AppConfig) {}

  /** Resolves to the score after the change (null: no such agent). Sent synchronously (pipeline- and oneTrip-safe). */
  record(
    sql: Queryable,
    agentId: string,
    type: ReputationEventType,
    refId: string,
    cause: ReputationCause,
  ): Promise<number | null> {
    const c = this.config;
    const weighted = c.reputationModel === 'weighted';
    const change = weighted
      ? weightedChange(type, cause.payer ?? cause.lapsedFor ?? null, cause.dispute, cause.lapsedFor !== undefined)
      : { payer: cause.payer, delta: REPUTATION_DELTAS[type], verdict: 0 };
    const calledBy = weighted ? cause.calledBy : undefined;
    return (
      sql.query(`SELECT ${calledBy ? APPLY_CALLED_BY : APPLY} AS score`, [
        agentId,
        type,
        change.delta,
        refId,
        calledBy ?? change.payer,
        cause.stake.toString(),
        null,
        '0',
        weighted,
        c.reputationPayerDailyCap,
        c.reputationPenaltyIntervalS,
        c.fundedPayerMinSpendMicro,
        c.reputationUnfundedPenaltyCap,
        c.reputationFundedPenaltyCap,
        change.verdict,
      ]) as Promise<{ score: number | null }[]>
    ).then((rows) => rows[0]?.score ?? null);
  }

  /**
   * `record`, answering the change applied after the clamp as well (what an event reports): the
   * agent's row is locked first, as `reputation_apply` would lock it, so the score read is the one
   * the change starts from. Outside the hot path (two statements).
   */
  async recordWithDelta(
    sql: Queryable,
    agentId: string,
    type: ReputationEventType,
    refId: string,
    cause: ReputationCause,
  ): Promise<{ score: number; delta: number } | null> {
    const [row] = (await sql.query(`SELECT reputation_score AS score FROM agents WHERE id = $1 FOR UPDATE`, [
      agentId,
    ])) as { score: number }[];
    if (!row) return null;
    const after = await this.record(sql, agentId, type, refId, cause);
    return after === null ? null : { score: after, delta: after - row.score };
  }
}
