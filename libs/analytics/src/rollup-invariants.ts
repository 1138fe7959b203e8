import { InvariantCheck } from '@app/ledger';

type Row = Record<string, unknown>;

/**
 * The rollups the database keeps (migration Reputation) equal what they summarise: derived data
 * that can be checked, and rebuilt, from the rows. Run by `npm run ledger:check` and the tests.
 */
export const ROLLUP_CHECKS: InvariantCheck[] = [
  {
    id: 'R1',
    description: "agent_stats: each agent's charged executions, money and time equal its transactions",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH t AS (SELECT providing_agent_id AS agent_id, count(*) AS completed, sum(gross_amount) AS gross, sum(platform_fee + platform_cut) AS fees,
                           sum(agent_earnings) AS net, sum(execution_time_ms) AS time_ms FROM transactions GROUP BY 1)
         SELECT coalesce(s.agent_id, t.agent_id)::text AS agent, coalesce(s.completed, 0)::text AS kept, coalesce(t.completed, 0)::text AS rows
           FROM agent_stats s FULL JOIN t ON t.agent_id = s.agent_id
          WHERE coalesce(s.completed, 0) <> coalesce(t.completed, 0) OR coalesce(s.gross, 0) <> coalesce(t.gross, 0) OR coalesce(s.platform_fees, 0) <> coalesce(t.fees, 0)
             OR coalesce(s.net, 0) <> coalesce(t.net, 0) OR coalesce(s.time_sum_ms, 0) <> coalesce(t.time_ms, 0)`,
      );
      return rows.map(
        (r) =>
          `agent ${r.agent}: agent_stats says ${r.kept} charged executions (or other sums), transactions ${r.rows}`,
      );
    },
  },
  {
    id: 'R2',
    description: "agent_latency: each agent's histogram equals its transactions' execution times",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH t AS (SELECT providing_agent_id AS agent_id, latency_bucket(execution_time_ms) AS bucket_ms, count(*) AS n FROM transactions GROUP BY 1, 2)
         SELECT coalesce(l.agent_id, t.agent_id)::text AS agent, coalesce(l.bucket_ms, t.bucket_ms) AS bucket, coalesce(l.n, 0)::text AS kept, coalesce(t.n, 0)::text AS rows
           FROM agent_latency l FULL JOIN t ON t.agent_id = l.agent_id AND t.bucket_ms = l.bucket_ms
          WHERE coalesce(l.n, 0) <> coalesce(t.n, 0)`,
      );
      return rows.map((r) => `agent ${r.agent} bucket ${r.bucket} ms: ${r.kept} kept, ${r.rows} in transactions`);
    },
  },
  {
    id: 'R3',
    description: "agent_stats: each agent's failures and dispute outcomes equal its reputation events",
    async run(m) {
      const rows: Row[] = await m.query(
        `WITH e AS (SELECT agent_id, count(*) FILTER (WHERE type = 'execution.failed') AS failed, count(*) FILTER (WHERE type = 'dispute.filed') AS filed,
                           count(*) FILTER (WHERE type = 'dispute.agent_wins') AS won, count(*) FILTER (WHERE type = 'dispute.client_wins') AS lost,
                           count(*) FILTER (WHERE type = 'dispute.split') AS split
                      FROM reputation_events GROUP BY 1)
         SELECT coalesce(e.agent_id, s.agent_id)::text AS agent FROM e FULL JOIN agent_stats s ON s.agent_id = e.agent_id
          WHERE coalesce(s.failed, 0) <> coalesce(e.failed, 0) OR coalesce(s.disputes_filed, 0) <> coalesce(e.filed, 0)
             OR coalesce(s.disputes_won, 0) <> coalesce(e.won, 0) OR coalesce(s.disputes_lost, 0) <> coalesce(e.lost, 0)
             OR coalesce(s.disputes_split, 0) <> coalesce(e.split, 0)`,
      );
      return rows.map((r) => `agent ${r.agent}: failures or dispute counts differ from its reputation events`);
    },
  },
  {
    id: 'R4',
    description: 'platform_stats: agents, active agents, transactions and volume equal the tables',
    async run(m) {
      const [r]: Row[] = await m.query(
        `SELECT (SELECT sum(agents) FROM platform_stats)::text AS agents, (SELECT count(*) FROM agents)::text AS agents_rows,
                (SELECT sum(active_agents) FROM platform_stats)::text AS active, (SELECT count(*) FROM agents WHERE status = 'active')::text AS active_rows,
                (SELECT sum(transactions) FROM platform_stats)::text AS txs, (SELECT count(*) FROM transactions)::text AS txs_rows,
                (SELECT sum(volume) FROM platform_stats)::text AS volume, (SELECT coalesce(sum(gross_amount), 0) FROM transactions)::text AS volume_rows`,
      );
      const wrong = (['agents', 'active', 'txs', 'volume'] as const).filter((k) => r[k] !== r[`${k}_rows`]);
      if (!wrong.length) return [];
      // The totals name no row: each shard row is kept for its agents (stats_shard), so name the shards that differ.
      const shards: Row[] = await m.query(
        `WITH t AS (SELECT stats_shard(providing_agent_id) AS shard, count(*) AS txs, sum(gross_amount) AS volume FROM transactions GROUP BY 1),
              a AS (SELECT 16 + stats_shard(id) AS shard, count(*) AS agents, count(*) FILTER (WHERE status = 'active') AS active FROM agents GROUP BY 1)
         SELECT p.shard, p.agents::text AS agents, coalesce(a.agents, 0)::text AS agents_rows, p.active_agents::text AS active,
                coalesce(a.active, 0)::text AS active_rows, p.transactions::text AS txs, coalesce(t.txs, 0)::text AS txs_rows,
                p.volume::text AS volume, coalesce(t.volume, 0)::text AS volume_rows
           FROM platform_stats p LEFT JOIN t ON t.shard = p.shard LEFT JOIN a ON a.shard = p.shard ORDER BY p.shard`,
      );
      return wrong.map((k) => {
        const off = shards
          .filter((s) => s[k] !== s[`${k}_rows`])
          .map((s) => `shard ${s.shard}: ${s[k]}, tables ${s[`${k}_rows`]}`);
        return `platform_stats ${k}: ${r[k]}, tables ${r[`${k}_rows`]}${off.length ? ` (${off.join('; ')})` : ''}`;
      });
    },
  },
];
