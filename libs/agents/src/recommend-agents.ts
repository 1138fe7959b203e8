import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ReplicaReads } from '@app/database';
import { AgentsRepository } from './agents.repository';
import { sanitizeQuery } from './search-text';
import { AgentEntity } from './entities/agent.entity';

export interface RankedAgent {
  agentId: string;
  relevance: number;
  matchedCapabilities: string[];
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
/** At most this many matches of a query are read to be ranked by reputation; more, and the ranking index is walked instead. */
export const RECOMMEND_SPARSE = 2000;
/** How many of the best-ranked agents are looked at first: when matches are dense, the candidates are among them. */
export const RECOMMEND_PROBE = 1000;
/** Candidates scored per set (all stems, any stem, trigram), at least `limit`. */
export const RECOMMEND_CANDIDATES = 50;

/** The query's English stems as `a | b` and `a & b` tsqueries (null: no stems). */
const TSQ = `WITH s AS (SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS lex)
  SELECT CASE WHEN cardinality(lex) = 0 THEN NULL ELSE to_tsquery('simple', array_to_string(array(SELECT quote_literal(l) FROM unnest(lex) AS l), $2::text)) END AS q FROM s`;

/** Not hidden by its health: no failing streak that began at $n or before (a null $n hides none). */
const LIVE = (id: string, n: number) =>
  `NOT EXISTS (SELECT 1 FROM agent_health h WHERE h.agent_id = ${id} AND h.failing_since <= $${n}::timestamptz)`;

/** Up to $3 live matches of a tsquery, in the ranking order (all of them read: used when they are few). */
const SPARSE = `SELECT a.id FROM agents a WHERE a.status = 'active' AND a.search_vector @@ (${TSQ}) AND ${LIVE('a.id', 4)} LIMIT $3`;

/** The first $3 live matches in the ranking order, walking the ranking index (when matches are many); only the first $4 agents when $4 is given. */
const DENSE = `SELECT r.agent_id AS id
  FROM (SELECT agent_id, score, executions, created_at FROM agent_ranking WHERE active ORDER BY score DESC, executions DESC, created_at, agent_id LIMIT $4) r
  JOIN LATERAL (SELECT 1 FROM agent_search s WHERE s.agent_id = r.agent_id AND s.search_vector @@ (${TSQ}) LIMIT 1) m ON true
  WHERE ${LIVE('r.agent_id', 5)}
  ORDER BY r.score DESC, r.executions DESC, r.created_at, r.agent_id LIMIT $3`;

/** The best $3 of given ids in the ranking order. */
const BEST = `SELECT agent_id AS id FROM agent_ranking WHERE agent_id = ANY($1::uuid[]) ORDER BY score DESC, executions DESC, created_at, agent_id LIMIT $2`;

/** Live agents whose text resembles the query (trigram word similarity, through the trigram index). */
const FUZZY = `SELECT a.id FROM agents a WHERE a.status = 'active' AND $1::text <% a.search_text AND ${LIVE('a.id', 3)} LIMIT $2`;

/** relevance = 0.55 coverage + 0.20 min(1, 4 rank) + 0.15 trigram + 0.10 reputation, for the candidates. */
const SCORE = `WITH q AS (
     SELECT $1::text AS text, lex, cardinality(lex) AS n,
            CASE WHEN cardinality(lex) = 0 THEN NULL
                 ELSE to_tsquery('simple', array_to_string(array(SELECT quote_literal(l) FROM unnest(lex) AS l), ' | ')) END AS tsq
       FROM (SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS lex) s
   ), scored AS (
     SELECT a.id, a.reputation_score, coalesce(h.status = 'down', false) AS down,
            CASE WHEN q.n = 0 THEN 0
                 ELSE (SELECT count(*) FROM unnest(q.lex) l WHERE l = ANY(tsvector_to_array(a.search_vector)))::float8 / q.n END AS coverage,
            CASE WHEN q.tsq IS NULL THEN 0 ELSE ts_rank(a.search_vector, q.tsq, 32) END AS rank,
            word_similarity(q.text, a.search_text) AS trigram
       FROM agents a CROSS JOIN q LEFT JOIN agent_health h ON h.agent_id = a.id
      WHERE a.id = ANY($3::uuid[]) AND a.status = 'active' AND NOT coalesce(h.failing_since <= $4::timestamptz, false)
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
    ORDER BY s.down, relevance DESC, s.reputation_score DESC, s.id
    LIMIT $2`;

/**
 * `GET /discover/recommend`: natural-language recommendation. Postgres full-text search over the
 * query's stems (names weighted above descriptions), blended with trigram similarity and
 * reputation; only a bounded set of candidates is scored, whatever the marketplace's size:
 *
 * 1. agents matching every stem, the best RECOMMEND_CANDIDATES in ranking order: found among the
 *    RECOMMEND_PROBE best-ranked agents when matches are dense; else all of them read through the GIN
 *    index when at most RECOMMEND_SPARSE match; else the ranking index walked until enough are found;
 * 2. the same for agents matching any stem, only when (1) found fewer than `limit`;
 * 3. agents whose text only resembles the query (word similarity >= 0.35, through the trigram
 *    index), only when (1) and (2) found fewer than `limit` (misspellings);
 * 4. the candidates scored: relevance = 0.55 coverage + 0.20 rank + 0.15 trigram + 0.10 reputation;
 *    a `down` one ranks below live ones.
 * An agent failing every probe for HEALTH_HIDE_AFTER_S is never a candidate (left out before the pick,
 * so hidden agents cannot crowd out live ones).
 *
 * On a marketplace where fewer agents match than the caps, every match is scored, as before.
 */
@Injectable()
export class RecommendAgents {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly tx: ReplicaReads,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(query: string, limit: number): Promise<Recommendation[]> {
    const ranked = await this.rank(query, limit);
    if (ranked.length === 0) return [];
    const found = await this.agents.withCapabilities(ranked.map((r) => r.agentId));
    return ranked.map((r) => {
      const { agent, capabilities } = found.get(r.agentId)!;
      agent.capabilities = capabilities;
      return { agent, relevance: r.relevance, matchedCapabilities: r.matchedCapabilities };
    });
  }

  /** The best `limit` active agents for the query, best first, without loading them (ids, relevance, matches). */
  async rank(query: string, limit: number): Promise<RankedAgent[]> {
    const text = sanitizeQuery(query);
    if (text === '') return [];
    const cap = Math.max(RECOMMEND_CANDIDATES, limit);
    const hide = this.config.healthHideAfterS;
    const hiddenFrom = hide > 0 ? new Date(this.clock.nowMs() - hide * 1000) : null;
    const candidates = new Set(await this.matches(text, ' & ', cap, hiddenFrom));
    if (candidates.size < limit) for (const id of await this.matches(text, ' | ', cap, hiddenFrom)) candidates.add(id);
    if (candidates.size < limit) for (const id of await this.fuzzy(text, cap, hiddenFrom)) candidates.add(id);
    if (candidates.size === 0) return [];
    const rows = await this.tx.query<{ id: string; relevance: string; matched: string[] | null }>(SCORE, [
      text,
      limit,
      [...candidates],
      hiddenFrom,
    ]);
    return rows.map((r) => ({ agentId: r.id, relevance: Number(r.relevance), matchedCapabilities: r.matched ?? [] }));
  }

  /**
   * The best `cap` agents (in ranking order) matching the stems joined by `joiner`: a look at the
   * RECOMMEND_PROBE best-ranked agents first (dense matches end there); else every match when they
   * are few (the GIN index), else the ranking index walked until `cap` are found.
   */
  private async matches(text: string, joiner: string, cap: number, hiddenFrom: Date | null): Promise<string[]> {
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    const probe = await this.tx.query<{ id: string }>(DENSE, [text, joiner, cap, RECOMMEND_PROBE, hiddenFrom]);
    if (probe.length === cap) return ids(probe);
    const sparse = await this.tx.query<{ id: string }>(SPARSE, [text, joiner, RECOMMEND_SPARSE, hiddenFrom]);
    if (sparse.length === 0) return [];
    if (sparse.length < RECOMMEND_SPARSE) return ids(await this.tx.query<{ id: string }>(BEST, [ids(sparse), cap]));
    return ids(await this.tx.query<{ id: string }>(DENSE, [text, joiner, cap, null, hiddenFrom]));
  }

  /** Trigram candidates; `<%` takes its threshold from the connection's setting, set in the same round trip. */
  private async fuzzy(text: string, cap: number, hiddenFrom: Date | null): Promise<string[]> {
    const [, found] = await this.tx.reads(
      (sql) =>
        [
          sql.query(`SELECT set_config('pg_trgm.word_similarity_threshold', '${MIN_TRIGRAM}', false)`),
          sql.query(FUZZY, [text, cap, hiddenFrom]) as Promise<{ id: string }[]>,
        ] as const,
    );
    return found.map((r) => r.id);
  }
}
