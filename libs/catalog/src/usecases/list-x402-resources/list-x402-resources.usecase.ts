import { Injectable } from '@nestjs/common';
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CapabilityCatalogReader, CatalogEntry } from '@app/agents';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { X402ResourceFilters, X402Resources } from '../../x402-resources';

/** How long the catalogue's size is reused (counting every listed capability is the one full scan). */
export const CATALOG_COUNT_TTL_MS = 10_000;

export interface X402ResourcePage {
  items: DiscoveryResource[];
  /** The catalogue rows the items were built from, in the same order (what the manifests add to a listing). */
  entries: CatalogEntry[];
  total: number;
}

/**
 * The x402 discovery API's list (`GET /x402/discovery/resources`): every capability of every
 * active agent as a resource, best-ranked agents first, one page by offset; an agent failing every
 * probe for HEALTH_HIDE_AFTER_S is left out (as from /discover and the search). The total is counted
 * at most once per CATALOG_COUNT_TTL_MS per process.
 */
@Injectable()
export class ListX402Resources {
  private counted: { n: number; atMs: number } | null = null;

  constructor(
    private readonly catalog: CapabilityCatalogReader,
    private readonly resources: X402Resources,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(q: { filters: X402ResourceFilters; limit: number; offset: number }): Promise<X402ResourcePage> {
    if (!this.resources.admits(q.filters)) return { items: [], entries: [], total: 0 };
    const hide = this.config.healthHideAfterS;
    const hiddenFrom = hide > 0 ? new Date(this.clock.nowMs() - hide * 1000) : null;
    const [entries, total] = await Promise.all([
      this.catalog.page(q.offset, q.limit, hiddenFrom),
      this.total(hiddenFrom),
    ]);
    const items = entries.map((entry) => this.resources.of(entry));
    return { items, entries, total: Math.max(total, q.offset + items.length) };
  }

  private async total(hiddenFrom: Date | null): Promise<number> {
    const now = this.clock.nowMs();
    if (this.counted && now - this.counted.atMs < CATALOG_COUNT_TTL_MS) return this.counted.n;
    const n = await this.catalog.count(hiddenFrom);
    this.counted = { n, atMs: now };
    return n;
  }
}
