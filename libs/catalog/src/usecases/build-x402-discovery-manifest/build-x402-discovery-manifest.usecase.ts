import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import type { DiscoveryManifest } from '../../discovery-manifest.types';
import { ManifestCache } from '../../manifest-cache';
import { manifestLinks } from '../../manifest-text';
import { ListX402Resources } from '../list-x402-resources/list-x402-resources.usecase';
import { liftResource } from './lift-bazaar';

/** A page of `/.well-known/x402.json` holds at most this many items (the discovery API's page). */
export const DISCOVERY_MANIFEST_MAX_ITEMS = 100;

/** The draft's manifest, one page of it, with agora's paging fields (unknown to the draft). */
export interface PagedDiscoveryManifest extends DiscoveryManifest {
  pagination: { offset: number; limit: number; total: number };
  /** The next page (null: this is the last). */
  next: string | null;
  /** The discovery API: the same resources, paged and searchable. */
  discovery: { resources: string; search: string };
}

/**
 * Builds a page of `/.well-known/x402.json` (the x402 well-known discovery draft) from the
 * discovery API's listing: each capability's 402 (resource, accepts) with its Bazaar contract
 * lifted to `input`/`output`, best-ranked first. The first page (the default) is built at most once
 * per MANIFEST_TTL_MS per process; another is built when asked.
 */
@Injectable()
export class BuildX402DiscoveryManifest {
  private readonly cache: ManifestCache<PagedDiscoveryManifest>;

  constructor(
    private readonly list: ListX402Resources,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.cache = new ManifestCache(clock);
  }

  execute(q: { offset: number; limit: number }): Promise<PagedDiscoveryManifest> {
    const limit = Math.min(Math.max(1, q.limit), DISCOVERY_MANIFEST_MAX_ITEMS);
    const offset = Math.max(0, q.offset);
    // Only the first page is kept (what crawlers fetch): other pages, whatever their number, cannot
    // push it out of the cache; they are built per request (the catalog rate limit bounds them).
    if (offset !== 0 || limit !== DISCOVERY_MANIFEST_MAX_ITEMS) return this.build(offset, limit);
    return this.cache.get(() => this.build(offset, limit));
  }

  private async build(offset: number, limit: number): Promise<PagedDiscoveryManifest> {
    const page = await this.list.execute({ filters: {}, limit, offset });
    const links = manifestLinks(this.config.publicBaseUrl);
    const more = page.items.length === limit && offset + limit < page.total;
    return {
      x402Version: 2,
      lastUpdated: Math.floor(this.clock.nowMs() / 1000),
      items: page.items.map(liftResource),
      pagination: { offset, limit, total: page.total },
      next: more ? `${links.x402Json}?offset=${offset + limit}&limit=${limit}` : null,
      discovery: { resources: links.resources, search: links.search },
    };
  }
}
