import { Injectable } from '@nestjs/common';
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CapabilityCatalogReader, RecommendAgents } from '@app/agents';
import { ValidationException } from '@app/common';
import { X402ResourceFilters, X402Resources } from '../../x402-resources';

/** The agents a search ranks (the recommend engine's candidate set): their capabilities are what is paged. */
export const SEARCH_WINDOW = 50;

export interface X402SearchResult {
  resources: DiscoveryResource[];
  /** true when the window was full: more agents may match than were ranked. */
  partialResults: boolean;
  /** The next page's cursor (null: this is the last). */
  cursor: string | null;
}

const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^o:(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) throw new ValidationException([{ field: 'cursor', messages: ['cursor is not one this API returned'] }]);
  return Number(m[1]);
}

/**
 * The x402 discovery API's search (`GET /x402/discovery/search`): the recommend engine ranks the
 * agents for the query (relevance, then reputation), and each ranked agent contributes the
 * capabilities that matched the query (all of its capabilities when the match was on the agent
 * itself), in that order, paged by an opaque cursor over the first SEARCH_WINDOW agents.
 */
@Injectable()
export class SearchX402Resources {
  constructor(
    private readonly recommend: RecommendAgents,
    private readonly catalog: CapabilityCatalogReader,
    private readonly resources: X402Resources,
  ) {}

  async execute(q: {
    query: string;
    filters: X402ResourceFilters;
    limit: number;
    cursor?: string;
  }): Promise<X402SearchResult> {
    const offset = decodeCursor(q.cursor);
    if (!this.resources.admits(q.filters)) return { resources: [], partialResults: false, cursor: null };
    const ranked = await this.recommend.rank(q.query, SEARCH_WINDOW);
    const byAgent = await this.catalog.ofAgents(ranked.map((r) => r.agentId));
    const hits = ranked.flatMap((r) => {
      const entries = byAgent.get(r.agentId) ?? [];
      const matched = new Set(r.matchedCapabilities);
      return matched.size ? entries.filter((e) => matched.has(e.capability.capabilityId)) : entries;
    });
    const page = hits.slice(offset, offset + q.limit);
    return {
      resources: page.map((entry) => this.resources.of(entry)),
      partialResults: ranked.length === SEARCH_WINDOW,
      cursor: offset + q.limit < hits.length ? encodeCursor(offset + q.limit) : null,
    };
  }
}
