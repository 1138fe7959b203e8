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

export interface Recommendation {
  agent: AgentEntity;
  relevance: number;
  matchedCapabilities: string[];
}

/** Relevance weights: query coverage dominates; ranking by field weight, trigram and reputation refine. */
const W_COVERAGE = 0.55;
const W_RANK = 0.2;
const W_TRIGRAM = 0.15;
const W_REPUTATION = 0.1;
const MIN_TRIGRAM = 0.35;
/** Candidates scored per recommendation, from each of the all-stems and any-stem matches. */
export const RECOMMEND_CANDIDATES = 200;

const RECOMMEND_SQL = `WITH q AS (
     SELECT $1::text AS text, lex, cardinality(lex) AS n,
            CASE WHEN cardinality(lex) = 0 THEN NULL
                 ELSE to_tsquery('simple', array_to_string(array(SELECT quote_literal(l) FROM unnest(lex) AS l), ' | ')) END AS tsq,
            CASE WHEN cardinality(lex) = 0 THEN NULL
                 ELSE to_tsquery('simple', array_to_string(array(SELECT quote_literal(l) FROM unnest(lex) AS l), ' & ')) END AS tsq_all
       FROM (SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS lex) s
   ), fts AS (
     (SELECT a.id FROM agents a, q WHERE a.status = 'active' AND a.search_vector @@ q.tsq_all ORDER BY a.reputation_score DESC, a.execution_count DESC, a.created_at, a.id LIMIT $3)
     UNION
     (SELECT a.id FROM agents a, q WHERE a.status = 'active' AND a.search_vector @@ q.tsq ORDER BY a.reputation_score DESC, a.execution_count DESC, a.created_at, a.id LIMIT $3)
   ), fuzzy AS (
     SELECT a.id FROM agents a WHERE (SELECT count(*) FROM fts) < $2 AND a.status = 'active' AND $1::text <% a.search_text LIMIT $3
   ), scored AS (
     SELECT a.id, a.reputation_score,
            CASE WHEN q.n = 0 THEN 0
                 ELSE (SELECT count(*) FROM unnest(q.lex) l WHERE l = ANY(tsvector_to_array(a.search_vector)))::float8 / q.n END AS coverage,
            CASE WHEN q.tsq IS NULL THEN 0 ELSE ts_rank(a.search_vector, q.tsq, 32) END AS rank,
            word_similarity(q.text, a.search_text) AS trigram
       FROM agents a, q
      WHERE a.id IN (SELECT id FROM fts UNION SELECT id FROM fuzzy)
        AND ((q.tsq IS NOT NULL AND a.search_vector @@ q.tsq) OR word_similarity(q.text, a.search_text) >= ${MIN_TRIGRAM})
   )
   SELECT s.id,
          round(LEAST(1, ${W_COVERAGE} * s.coverage + ${W_RANK} * LEAST(1, s.rank * 4) + ${W_TRIGRAM} * s.trigram
                         + ${W_REPUTATION} * s.reputation_score / 100.0)::numeric, 4) AS relevance,
          (SELECT array_agg(c.capability_id ORDER BY c.position) FROM agent_capabilities c, q
            WHERE c.agent_id = s.id
              AND ((q.tsq IS NOT NULL AND to_tsvector('english', c.name || ' ' || c.description) @@ q.tsq)
                   OR word_similarity(q.text, lower(c.name || ' ' || c.description)) >= ${MIN_TRIGRAM})) AS matched
     FROM scored s
    ORDER BY relevance DESC, s.reputation_score DESC, s.id
    LIMIT $2`;

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

  /**
   * Natural-language recommendation: Postgres full-text search (the query's stems, names weighted
   * above descriptions) blended with trigram similarity and reputation.
   * relevance = 0.55 coverage + 0.20 rank + 0.15 trigram + 0.10 reputation, in [0, 1].
   *
   * Bounded work at any size: the candidates are at most RECOMMEND_CANDIDATES agents matching all
   * the stems and as many matching any of them, each set taken from the GIN index in ranking order
   * (best reputation first when more match); agents whose text only resembles the query (trigram
   * word similarity >= 0.35, through the trigram index) are looked for only when full-text search
   * found fewer than `limit`. Only the candidates are scored, so a marketplace with fewer matches
   * than the cap gets exactly the ranking it had when every agent was scored.
   */
  async recommend(query: string, limit: number): Promise<Recommendation[]> {
    const text = sanitizeQuery(query);
    if (text === '') return [];
    const [, result] = await this.tx.batch(
      (sql) =>
        [
          // The threshold of `<%` (this connection's setting; every use of it here wants this value).
          sql.query(`SELECT set_config('pg_trgm.word_similarity_threshold', '${MIN_TRIGRAM}', false)`),
          sql.query(RECOMMEND_SQL, [text, limit, RECOMMEND_CANDIDATES]) as Promise<{ id: string; relevance: string; matched: string[] | null }[]>,
        ] as const,
    );
    if (result.status === 'rejected') throw result.reason;
    const rows = result.value;
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const agents = await this.dataSource.getRepository(AgentEntity).createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany();
    const caps = await this.dataSource.getRepository(AgentCapabilityEntity).createQueryBuilder('c').where('c.agent_id IN (:...ids)', { ids }).orderBy('c.position', 'ASC').getMany();
    const byId = new Map(agents.map((a) => [a.id, a]));
    return rows.map((r) => {
      const agent = byId.get(r.id)!;
      agent.capabilities = caps.filter((c) => c.agentId === r.id);
      return { agent, relevance: Number(r.relevance), matchedCapabilities: r.matched ?? [] };
    });
  }
}
