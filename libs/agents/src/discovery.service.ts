import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { AgentsRepository } from './agents.repository';
import { AgentEntity } from './entities/agent.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';

export interface DiscoverFilters {
  capability?: string;
  /** micro-USDC */
  maxPrice?: bigint;
  minReputation?: number;
  limit: number;
  offset: number;
}

export interface DiscoveredAgent {
  agent: AgentEntity;
  /** Only the capabilities that match the filters. */
  capabilities: AgentCapabilityEntity[];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Words only: what reaches to_tsvector/to_tsquery can never be query syntax. */
export function sanitizeQuery(query: string): string {
  return query
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

@Injectable()
export class DiscoveryService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  /**
   * Active agents with at least one capability matching the filters, in ranking order: score, then
   * executions, then age, which puts At Risk and Critical agents (below 40) after the rest
   * (resolutions §8). Reads `agent_ranking` (a narrow row per agent with its capability names and
   * lowest price): a page comes from its ranking index, a name filter is one ILIKE on the row (the
   * names joined cannot match across two names: the joiner is U+001F), and the capabilities table is
   * consulted only when both filters must hold for one capability. The total is exact up to
   * DISCOVER_TOTAL_CAP (config) and saturates there (`totalExact` false), so no filter costs a count of every
   * matching agent.
   */
  async discover(f: DiscoverFilters): Promise<{ agents: DiscoveredAgent[]; total: number; totalExact: boolean }> {
    const params: unknown[] = [];
    const where = ['r.active'];
    const capConds: string[] = ['c.agent_id = r.agent_id'];
    if (f.capability !== undefined) {
      params.push(`%${escapeLike(f.capability)}%`);
      where.push(`r.capability_names ILIKE $${params.length}`);
      capConds.push(`c.name ILIKE $${params.length}`);
    }
    if (f.maxPrice !== undefined) {
      params.push(f.maxPrice.toString());
      where.push(`r.min_price <= $${params.length}`);
      capConds.push(`c.base_price <= $${params.length}`);
    }
    if (f.capability !== undefined && f.maxPrice !== undefined)
      where.push(`EXISTS (SELECT 1 FROM agent_capabilities c WHERE ${capConds.join(' AND ')})`);
    if (f.minReputation !== undefined) {
      // Scores are integers: >= 37.5 is >= 38.
      params.push(Math.ceil(f.minReputation));
      where.push(`r.score >= $${params.length}::int`);
    }
    const whereSql = where.join(' AND ');
    const cap = this.config.discoverTotalCap;
    const [counted, page] = await this.tx.reads(
      (sql) =>
        [
          sql.query(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM agent_ranking r WHERE ${whereSql} LIMIT $${params.length + 1}) x`,
            [...params, cap + 1],
          ) as Promise<{ n: number }[]>,
          sql.query(
            `SELECT r.agent_id AS id FROM agent_ranking r WHERE ${whereSql}
              ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
            [...params, f.limit, f.offset],
          ) as Promise<{ id: string }[]>,
        ] as const,
    );
    const n = counted[0].n;
    const totalExact = n <= cap;
    const total = totalExact ? n : cap;
    const ids = page.map((r) => r.id);
    if (ids.length === 0) return { agents: [], total, totalExact };
    const found = await this.agents.withCapabilities(ids, {
      nameLike: f.capability === undefined ? undefined : `%${escapeLike(f.capability)}%`,
      maxPrice: f.maxPrice,
    });
    return { total, totalExact, agents: ids.map((id) => found.get(id)!) };
  }
}
