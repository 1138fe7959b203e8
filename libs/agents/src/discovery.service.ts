import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
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

export function escapeLike(text: string): string {
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
    @InjectDataSource() private readonly dataSource: DataSource,
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
    if (f.capability !== undefined && f.maxPrice !== undefined) where.push(`EXISTS (SELECT 1 FROM agent_capabilities c WHERE ${capConds.join(' AND ')})`);
    if (f.minReputation !== undefined) {
      // Scores are integers: >= 37.5 is >= 38.
      params.push(Math.ceil(f.minReputation));
      where.push(`r.score >= $${params.length}::int`);
    }
    const whereSql = where.join(' AND ');
    const cap = this.config.discoverTotalCap;
    const [counted, page] = await this.tx.batch(
      (sql) =>
        [
          sql.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM agent_ranking r WHERE ${whereSql} LIMIT $${params.length + 1}) x`, [...params, cap + 1]) as Promise<{ n: number }[]>,
          sql.query(
            `SELECT r.agent_id AS id FROM agent_ranking r WHERE ${whereSql}
              ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
            [...params, f.limit, f.offset],
          ) as Promise<{ id: string }[]>,
        ] as const,
    );
    if (counted.status === 'rejected') throw counted.reason;
    if (page.status === 'rejected') throw page.reason;
    const n = counted.value[0].n;
    const totalExact = n <= cap;
    const total = totalExact ? n : cap;
    const ids = page.value.map((r) => r.id);
    if (ids.length === 0) return { agents: [], total, totalExact };
    const capQb = this.dataSource.getRepository(AgentCapabilityEntity).createQueryBuilder('c').where('c.agent_id IN (:...ids)', { ids }).orderBy('c.position', 'ASC');
    if (f.capability !== undefined) capQb.andWhere(`c.name ILIKE :cap`, { cap: `%${escapeLike(f.capability)}%` });
    if (f.maxPrice !== undefined) capQb.andWhere('c.base_price <= :max', { max: f.maxPrice.toString() });
    const [agents, caps] = await Promise.all([this.dataSource.getRepository(AgentEntity).createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany(), capQb.getMany()]);
    const byId = new Map(agents.map((a) => [a.id, a]));
    return {
      total,
      totalExact,
      agents: ids.map((id) => ({ agent: byId.get(id)!, capabilities: caps.filter((c) => c.agentId === id) })),
    };
  }
}
