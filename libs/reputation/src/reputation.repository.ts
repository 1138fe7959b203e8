import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '@app/database';

export interface ReputationRow {
  agentId: string;
  name: string;
  score: number;
  status: string;
  successful: number;
  failed: number;
  disputesWon: number;
  disputesLost: number;
}

export interface ReputationEventRow {
  type: string;
  delta: number;
  score: number;
  refId: string | null;
  createdAt: Date;
}

export interface LeaderboardRow {
  agentId: string;
  name: string;
  score: number;
  totalExecutions: number;
}

/** Every read of `reputation_events` and of the score as reputation shows it. */
@Injectable()
export class ReputationRepository {
  constructor(private readonly tx: ReplicaReads) {}

  /** The agent's score and breakdown, and its newest events (newest first), in one round trip. */
  async profile(
    agentId: string,
    recent: number,
  ): Promise<{ agent: ReputationRow | null; events: ReputationEventRow[] }> {
    const [agent, events] = await this.tx.reads(
      (sql) =>
        [
          sql.query(
            `SELECT a.id AS "agentId", a.name, a.reputation_score AS score, a.status,
                coalesce(s.completed, 0)::int AS successful, coalesce(s.failed, 0)::int AS failed,
                coalesce(s.disputes_won, 0)::int AS "disputesWon", coalesce(s.disputes_lost, 0)::int AS "disputesLost"
           FROM agents a LEFT JOIN agent_stats s ON s.agent_id = a.id WHERE a.id = $1`,
            [agentId],
          ) as Promise<ReputationRow[]>,
          sql.query(
            `SELECT type, delta, score, ref_id AS "refId", created_at AS "createdAt" FROM reputation_events
          WHERE agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
            [agentId, recent],
          ) as Promise<ReputationEventRow[]>,
        ] as const,
    );
    return { agent: agent[0] ?? null, events };
  }

  /** What a payer has paid agora in settled agent fees to agents not its own, micro-USDC (0: none). */
  async payerSpend(payer: string): Promise<bigint> {
    const [row] = await this.tx.query<{ amount: string }>(`SELECT amount FROM payer_spend WHERE payer = lower($1)`, [
      payer,
    ]);
    return BigInt(row?.amount ?? 0);
  }

  /** Active agents by score, then executions, then age (the ranking index of `agent_ranking`). */
  leaderboard(limit: number): Promise<LeaderboardRow[]> {
    return this.tx.query<LeaderboardRow>(
      `SELECT r.agent_id AS "agentId", a.name, r.score, r.executions AS "totalExecutions"
         FROM (SELECT agent_id, score, executions, created_at FROM agent_ranking WHERE active ORDER BY score DESC, executions DESC, created_at, agent_id LIMIT $1) r
         JOIN agents a ON a.id = r.agent_id
        ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id`,
      [limit],
    );
  }
}
