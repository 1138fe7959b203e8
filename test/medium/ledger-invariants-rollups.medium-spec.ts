import { QueryRunner } from 'typeorm';
import { Corruption, describeCorruptions } from '../support/ledger-corruption';

/**
 * The rollup checks (R1-R4) shown able to fail: each corruption of one rollup row of a valid
 * database fails exactly its check, whose violation names the row (the agent, its latency bucket,
 * the platform_stats shard).
 */
const shardOf = async (q: QueryRunner, agentId: string): Promise<number> =>
  (await q.query(`SELECT stats_shard($1::uuid) AS shard`, [agentId]))[0].shard;

const cases: Corruption[] = [
  {
    check: 'R1',
    what: "an agent's count of charged executions changes",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_stats SET completed = completed + 1 WHERE agent_id = $1`, [s.earner]);
      return `agent ${s.earner}: agent_stats says`;
    },
  },
  {
    check: 'R1',
    what: "an agent's net earnings change",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_stats SET net = net + 1 WHERE agent_id = $1`, [s.debtor]);
      return `agent ${s.debtor}: agent_stats says`;
    },
  },
  {
    check: 'R2',
    what: "an agent's latency bucket counts one more execution",
    async corrupt(q, s) {
      // typeorm answers an UPDATE ... RETURNING with [rows, count]
      const [rows] = await q.query(
        `UPDATE agent_latency SET n = n + 1 WHERE agent_id = $1 AND bucket_ms = latency_bucket(7) RETURNING bucket_ms::text AS bucket`,
        [s.earner],
      );
      return `agent ${s.earner} bucket ${rows[0].bucket} ms`;
    },
  },
  {
    check: 'R3',
    what: "an agent's count of disputes filed changes",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_stats SET disputes_filed = disputes_filed + 1 WHERE agent_id = $1`, [s.earner]);
      return `agent ${s.earner}: failures or dispute counts`;
    },
  },
  {
    check: 'R3',
    what: "an agent's count of failed executions changes",
    async corrupt(q, s) {
      await q.query(`UPDATE agent_stats SET failed = failed + 1 WHERE agent_id = $1`, [s.debtor]);
      return `agent ${s.debtor}: failures or dispute counts`;
    },
  },
  {
    check: 'R4',
    what: "a transactions shard's count changes",
    async corrupt(q, s) {
      const shard = await shardOf(q, s.earner);
      await q.query(`UPDATE platform_stats SET transactions = transactions + 1 WHERE shard = $1`, [shard]);
      return `shard ${shard}: `;
    },
  },
  {
    check: 'R4',
    what: "an agents shard's count of active agents changes",
    async corrupt(q, s) {
      const shard = 16 + (await shardOf(q, s.debtor));
      await q.query(`UPDATE platform_stats SET active_agents = active_agents - 1 WHERE shard = $1`, [shard]);
      return `platform_stats active: 1, tables 2 (shard ${shard}: `;
    },
  },
];

describeCorruptions('ledger invariants: the rollups (R1-R4) each fail alone (medium)', cases);
