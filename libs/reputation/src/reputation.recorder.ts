import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { REPUTATION_DELTAS, ReputationEventType } from './reputation.rules';

/**
 * Moves an agent's score inside the transaction of the outcome that causes it, through the SQL
 * function `reputation_apply` (migrations Reputation, MarketIntegrity): one statement that locks the
 * agent's row, applies the payer's limits (a payment by the agent's own wallet moves nothing; one
 * payer adds at most REPUTATION_PAYER_DAILY_CAP a rolling day and penalizes at most once each
 * REPUTATION_PENALTY_INTERVAL_S), clamps to 0-100, writes the event with the delta applied, counts
 * the outcome, and suspends an agent a penalty takes to 0. Concurrent outcomes queue on the row.
 */
@Injectable()
export class ReputationRecorder {
  constructor(private readonly config: AppConfig) {}

  /**
   * Resolves to the score after the change (null: no such agent). `payer`: the wallet whose payment or
   * dispute caused it (null: the platform decided). Sent synchronously (pipeline- and oneTrip-safe).
   */
  record(
    sql: Queryable,
    agentId: string,
    type: ReputationEventType,
    refId: string,
    payer: string | null = null,
  ): Promise<number | null> {
    const limits = [this.config.reputationPayerDailyCap, this.config.reputationPenaltyIntervalS];
    return (
      sql.query(`SELECT reputation_apply($1, $2, $3, $4, $5, $6, $7) AS score`, [
        agentId,
        type,
        REPUTATION_DELTAS[type],
        refId,
        payer,
        ...limits,
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
  ): Promise<{ score: number; delta: number } | null> {
    const [row] = (await sql.query(`SELECT reputation_score AS score FROM agents WHERE id = $1 FOR UPDATE`, [
      agentId,
    ])) as { score: number }[];
    if (!row) return null;
    const after = await this.record(sql, agentId, type, refId);
    return after === null ? null : { score: after, delta: after - row.score };
  }
}
