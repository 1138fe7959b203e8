import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '@app/database';

/** Counts and sums as Postgres returns them (bigint sums as text). */
export interface AgentTotalsRow {
  score: number;
  completed: string;
  failed: string;
  disputesFiled: string;
  disputesWon: string;
  disputesLost: string;
  disputesSplit: string;
  gross: string;
  platformFees: string;
  net: string;
  timeSumMs: string;
}

/** Charged executions of one execution time (or latency bucket): how many, and their money. */
export interface LatencyRow {
  ms: number;
  n: string;
  gross: string;
  platformFees: string;
  net: string;
}

export interface EventCountsRow {
  failed: string;
  disputesFiled: string;
  disputesWon: string;
  disputesLost: string;
  disputesSplit: string;
  change: string;
}

export interface PlatformTotalsRow {
  agents: string;
  activeAgents: string;
  transactions: string;
  volume: string;
}

/**
 * The analytics read model. Totals come from the rollups the database keeps in the outcome's
 * transaction (`agent_stats`, `agent_latency`, `platform_stats`, migration Reputation); a rolling
 * window reads the agent's charged transactions and reputation events in it through their
 * (agent, created_at) indexes. Read-only over tables other libs write, as a read model is.
 */
/**
 * Charged executions paid by the agent's own wallet since $2: counted, but they moved no reputation
 * (resolutions §7). The payer index finds them; a wallet that pays its own agent a lot only reads its own rows.
 */
const SELF_PAID = `SELECT count(*)::text AS n FROM transactions
  WHERE payer_wallet = (SELECT lower(wallet) FROM agents WHERE id = $1) AND providing_agent_id = $1 AND created_at >= $2`;

@Injectable()
export class AnalyticsRepository {
  constructor(private readonly tx: ReplicaReads) {}

  /** The agent's score and totals (null: no such agent) and its all-time latency histogram, in one round trip. */
  async allTime(agentId: string): Promise<{ totals: AgentTotalsRow | null; latency: LatencyRow[]; selfPaid: number }> {
    const [totals, latency, selfPaid] = await this.tx.reads(
      (sql) =>
        [
          sql.query(TOTALS, [agentId]) as Promise<AgentTotalsRow[]>,
          sql.query(
            `SELECT bucket_ms AS ms, n::text AS n, '0' AS gross, '0' AS "platformFees", '0' AS net FROM agent_latency WHERE agent_id = $1 ORDER BY bucket_ms`,
            [agentId],
          ) as Promise<LatencyRow[]>,
          sql.query(SELF_PAID, [agentId, new Date(0)]) as Promise<{ n: string }[]>,
        ] as const,
    );
    return { totals: totals[0] ?? null, latency, selfPaid: Number(selfPaid[0].n) };
  }

  /** The agent's score and totals, and what happened since `since`, in one round trip. */
  async window(
    agentId: string,
    since: Date,
  ): Promise<{ totals: AgentTotalsRow | null; latency: LatencyRow[]; events: EventCountsRow; selfPaid: number }> {
    const [totals, latency, events, selfPaid] = await this.tx.reads(
      (sql) =>
        [
          sql.query(TOTALS, [agentId]) as Promise<AgentTotalsRow[]>,
          sql.query(
            `SELECT execution_time_ms AS ms, count(*)::text AS n, sum(gross_amount)::text AS gross, sum(platform_fee + platform_cut)::text AS "platformFees",
                sum(agent_earnings)::text AS net
           FROM transactions WHERE providing_agent_id = $1 AND created_at >= $2 GROUP BY execution_time_ms ORDER BY execution_time_ms`,
            [agentId, since],
          ) as Promise<LatencyRow[]>,
          sql.query(
            `SELECT count(*) FILTER (WHERE type = 'execution.failed')::text AS failed, count(*) FILTER (WHERE type = 'dispute.filed')::text AS "disputesFiled",
                count(*) FILTER (WHERE type = 'dispute.agent_wins')::text AS "disputesWon", count(*) FILTER (WHERE type = 'dispute.client_wins')::text AS "disputesLost",
                count(*) FILTER (WHERE type = 'dispute.split')::text AS "disputesSplit", coalesce(sum(delta), 0)::text AS change
           FROM reputation_events WHERE agent_id = $1 AND created_at >= $2`,
            [agentId, since],
          ) as Promise<EventCountsRow[]>,
          sql.query(SELF_PAID, [agentId, since]) as Promise<{ n: string }[]>,
        ] as const,
    );
    return { totals: totals[0] ?? null, latency, events: events[0], selfPaid: Number(selfPaid[0].n) };
  }

  /** The platform's totals: the shards summed. */
  async platform(): Promise<PlatformTotalsRow> {
    const [row] = await this.tx.query<PlatformTotalsRow>(
      `SELECT sum(agents)::text AS agents, sum(active_agents)::text AS "activeAgents", sum(transactions)::text AS transactions, sum(volume)::text AS volume FROM platform_stats`,
    );
    return row;
  }
}

const TOTALS = `SELECT a.reputation_score AS score, coalesce(s.completed, 0)::text AS completed, coalesce(s.failed, 0)::text AS failed,
       coalesce(s.disputes_filed, 0)::text AS "disputesFiled", coalesce(s.disputes_won, 0)::text AS "disputesWon", coalesce(s.disputes_lost, 0)::text AS "disputesLost",
       coalesce(s.disputes_split, 0)::text AS "disputesSplit", coalesce(s.gross, 0)::text AS gross, coalesce(s.platform_fees, 0)::text AS "platformFees", coalesce(s.net, 0)::text AS net, coalesce(s.time_sum_ms, 0)::text AS "timeSumMs"
  FROM agents a LEFT JOIN agent_stats s ON s.agent_id = a.id WHERE a.id = $1`;
