import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '@app/database';
import { ExecutableAgent, ExecutableCapability, TargetRow, targetOf } from './execute-target.reader';

/** One listed capability: what its x402 offer is built from, and when its agent last changed. */
export interface CatalogEntry {
  agent: ExecutableAgent;
  capability: ExecutableCapability;
  /** The capability's description as its agent wrote it (up to 1000 characters, untrusted text). */
  description: string;
  /** agents.config_version: a built listing stays valid while it does not move. */
  version: string;
  updatedAt: Date;
}

interface CatalogRow extends TargetRow {
  capabilityId: string;
  description: string;
  updatedAt: Date;
}

const COLUMNS = `a.id, a.name, a.status, a.endpoints, a.reputation_score AS "reputationScore", a.chain_settings AS "chainSettings",
  a.metadata->'tags' AS tags, a.config_version AS "version", a.updated_at AS "updatedAt", c.capability_id AS "capabilityId",
  c.name AS "capabilityName", c.description, c.input_schema AS "inputSchema", c.output_schema AS "outputSchema",
  c.pricing_model AS "pricingModel", c.base_price AS "basePrice", c.max_price AS "maxPrice"`;

/** Not hidden by its health: no failing streak that began at $n or before (a null $n hides none). */
const LIVE = (n: number) =>
  `NOT EXISTS (SELECT 1 FROM agent_health h WHERE h.agent_id = r.agent_id AND h.failing_since <= $${n}::timestamptz)`;

/**
 * A page at capability offset $1: the ranking order (its partial index, ix_agent_ranking_order) walked
 * on the narrow ranking rows with a running count of capabilities (counted from the names joined by
 * U+001F, which no name holds), so only the page's agents are joined; each agent's capabilities in
 * their order. A deep offset costs a walk of the ranking index, not a join of every row before it.
 */
const PAGE = `WITH w AS (
    SELECT agent_id, score, executions, created_at, n,
           sum(n) OVER (ORDER BY score DESC, executions DESC, created_at, agent_id) AS upto
      FROM (SELECT agent_id, score, executions, created_at,
                   coalesce(array_length(string_to_array(capability_names, chr(31)), 1), 0) AS n
              FROM agent_ranking r WHERE active AND ${LIVE(3)}) ranked
  ), win AS (
    SELECT agent_id, score, executions, created_at, upto - n AS before FROM w
     WHERE upto > $1::bigint ORDER BY score DESC, executions DESC, created_at, agent_id LIMIT $2
  )
  SELECT ${COLUMNS}
    FROM win r JOIN agents a ON a.id = r.agent_id JOIN agent_capabilities c ON c.agent_id = r.agent_id
   ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id, c.position
  OFFSET $1::bigint - (SELECT min(before) FROM win) LIMIT $2`;

const COUNT = `SELECT count(*)::int AS n FROM agent_ranking r JOIN agent_capabilities c ON c.agent_id = r.agent_id
  WHERE r.active AND ${LIVE(1)}`;

const OF_AGENTS = `SELECT ${COLUMNS} FROM agents a JOIN agent_capabilities c ON c.agent_id = a.id
  WHERE a.id = ANY($1::uuid[]) AND a.status = 'active' ORDER BY a.id, c.position`;

function entryOf(row: CatalogRow): CatalogEntry {
  return { ...targetOf(row), description: row.description, version: row.version, updatedAt: row.updatedAt };
}

/**
 * Every capability of every active agent that is not hidden by its health (failing every probe for
 * HEALTH_HIDE_AFTER_S), as a catalogue lists them: a page in the ranking order
 * (best-ranked agents first, each agent's capabilities in their order), how many there are, and the
 * capabilities of given agents (a search's hits).
 */
@Injectable()
export class CapabilityCatalogReader {
  constructor(private readonly tx: ReplicaReads) {}

  /** A page of the capabilities listed, leaving out agents failing every probe since `hiddenFrom` or before. */
  async page(offset: number, limit: number, hiddenFrom: Date | null): Promise<CatalogEntry[]> {
    return (await this.tx.query<CatalogRow>(PAGE, [offset, limit, hiddenFrom])).map(entryOf);
  }

  async count(hiddenFrom: Date | null): Promise<number> {
    const [row] = await this.tx.query<{ n: number }>(COUNT, [hiddenFrom]);
    return row.n;
  }

  /** The capabilities of the given agents that are active, grouped by agent id (capabilities in their order). */
  async ofAgents(ids: string[]): Promise<Map<string, CatalogEntry[]>> {
    const byAgent = new Map<string, CatalogEntry[]>();
    if (ids.length === 0) return byAgent;
    for (const row of await this.tx.query<CatalogRow>(OF_AGENTS, [[...new Set(ids)]])) {
      const list = byAgent.get(row.id) ?? [];
      list.push(entryOf(row));
      byAgent.set(row.id, list);
    }
    return byAgent;
  }
}
