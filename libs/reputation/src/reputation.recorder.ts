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
}
