import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { REPUTATION_DELTAS, ReputationEventType } from './reputation.rules';

/**
 * Moves an agent's score inside the transaction of the outcome that causes it, through the SQL
 * function `reputation_apply` (migration Reputation): one statement that locks the agent's row,
 * clamps to 0-100, writes the event with the delta applied, counts the outcome, and suspends an
 * agent a penalty takes to 0. Concurrent outcomes queue on the row, so none is lost.
 */
@Injectable()
export class ReputationRecorder {
  /** Resolves to the score after the change (null: no such agent). Sent synchronously (pipeline- and oneTrip-safe). */
  record(sql: Queryable, agentId: string, type: ReputationEventType, refId: string): Promise<number | null> {
    return (sql.query(`SELECT reputation_apply($1, $2, $3, $4) AS score`, [agentId, type, REPUTATION_DELTAS[type], refId]) as Promise<{ score: number | null }[]>).then(
      (rows) => rows[0]?.score ?? null,
    );
  }

  /**
   * `record`, answering the change applied after the clamp as well (what an event reports): the
   * agent's row is locked first, as `reputation_apply` would lock it, so the score read is the one
   * the change starts from. Outside the hot path (two statements).
   */
  async recordWithDelta(sql: Queryable, agentId: string, type: ReputationEventType, refId: string): Promise<{ score: number; delta: number } | null> {
    const [row] = (await sql.query(`SELECT reputation_score AS score FROM agents WHERE id = $1 FOR UPDATE`, [agentId])) as { score: number }[];
    if (!row) return null;
    const after = await this.record(sql, agentId, type, refId);
    return after === null ? null : { score: after, delta: after - row.score };
  }
}
