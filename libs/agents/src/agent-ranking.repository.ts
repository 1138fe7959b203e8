import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '@app/database';
import { escapeLike } from './search-text';

/** What a discovery page filters on (micro-USDC prices; integer scores). */
export interface RankingFilters {
  capability?: string;
  maxPrice?: bigint;
  minReputation?: number;
  /** 0..1: only agents whose uptime over 24 h is at least this (agents never probed have none). */
  minUptime?: number;
  /** Agents failing every probe since this time or before are not listed. */
  failingBefore?: Date;
  limit: number;
  offset: number;
}

/**
 * Reads of `agent_ranking` (a narrow row per agent with its capability names and lowest price): a
 * page comes from its ranking index, a name filter is one ILIKE on the row (the names joined cannot
 * match across two names: the joiner is U+001F), and the capabilities table is consulted only when
 * both filters must hold for one capability.
 */
@Injectable()
export class AgentRankingRepository {
  constructor(private readonly tx: ReplicaReads) {}

  /**
   * One page of agent ids in ranking order (score, then executions, then age), and how many match,
   * counted up to `countCap` (a count past it is `countCap`); both in one pipelined round trip.
   */
  async page(f: RankingFilters, countCap: number): Promise<{ counted: number; ids: string[] }> {
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
    if (f.failingBefore !== undefined) {
      params.push(f.failingBefore);
      where.push(
        `NOT EXISTS (SELECT 1 FROM agent_health h WHERE h.agent_id = r.agent_id AND h.failing_since <= $${params.length})`,
      );
    }
    if (f.minUptime !== undefined) {
      params.push(f.minUptime);
      where.push(
        `EXISTS (SELECT 1 FROM agent_health h WHERE h.agent_id = r.agent_id AND h.uptime_24h >= $${params.length}::float8)`,
      );
    }
    const whereSql = where.join(' AND ');
    const [counted, page] = await this.tx.reads(
      (sql) =>
        [
          sql.query(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM agent_ranking r WHERE ${whereSql} LIMIT $${params.length + 1}) x`,
            [...params, countCap],
          ) as Promise<{ n: number }[]>,
          sql.query(
            `SELECT r.agent_id AS id FROM agent_ranking r WHERE ${whereSql}
              ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
            [...params, f.limit, f.offset],
          ) as Promise<{ id: string }[]>,
        ] as const,
    );
    return { counted: counted[0].n, ids: page.map((r) => r.id) };
  }
}
