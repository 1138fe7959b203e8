import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ManifestCache } from '../../manifest-cache';
import { manifestLinks } from '../../manifest-text';
import { ListX402Resources } from '../list-x402-resources/list-x402-resources.usecase';

/** The capabilities `/.well-known/x402` points at (the best-ranked); the discovery API lists them all. */
export const MANIFEST_MAX_RESOURCES = 100;

/** A resource as the discovery draft's bare pointer: the 402 at `url` is the authority on its terms. */
export interface X402ManifestResource {
  url: string;
  method: 'POST';
  description: string;
}

/**
 * The `/.well-known/x402` manifest of the x402 `discovery` extension draft (x402-foundation/x402
 * specs/extensions/discovery.md), for a resource server. Fields past the draft's (`discovery`,
 * `total`, `truncated`) are agora's: the draft ignores unknown fields.
 */
export interface X402Manifest {
  x402Version: 2;
  kind: 'resource-server';
  name: string;
  description: string;
  resources: X402ManifestResource[];
  attestation: { type: 'none' };
  docs: string;
  updated: string;
  /** Every capability, paged and searchable: where a reader goes for more than `resources`. */
  discovery: { resources: string; search: string; manifest: string };
  /** How many capabilities are listed in all. */
  total: number;
  /** true when `resources` holds only the first MANIFEST_MAX_RESOURCES of them. */
  truncated: boolean;
}

/**
 * Builds `/.well-known/x402` from the discovery API's listing (the same offers as the 402s): each
 * capability's resource as a bare pointer (url, method, the 402's description), best-ranked
 * first, at most MANIFEST_MAX_RESOURCES, with links to the discovery API for the rest. Built at
 * most once per MANIFEST_TTL_MS per process.
 */
@Injectable()
export class BuildX402Manifest {
  private readonly cache: ManifestCache<X402Manifest>;

  constructor(
    private readonly list: ListX402Resources,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.cache = new ManifestCache(clock);
  }

  execute(): Promise<X402Manifest> {
    return this.cache.get(() => this.build());
  }

  private async build(): Promise<X402Manifest> {
    const page = await this.list.execute({ filters: {}, limit: MANIFEST_MAX_RESOURCES, offset: 0 });
    const links = manifestLinks(this.config.publicBaseUrl);
    const updated = page.items.reduce((last, r) => (r.lastUpdated > last ? r.lastUpdated : last), '');
    return {
      x402Version: 2,
      kind: 'resource-server',
      name: 'agora',
      description: 'Agent marketplace: every capability of every agent is an x402 resource, paid per call in USDC.',
      resources: page.items.map((r) => ({ url: r.resource, method: 'POST', description: r.description ?? '' })),
      attestation: { type: 'none' },
      docs: links.swagger,
      updated: updated || this.clock.now().toISOString(),
      discovery: { resources: links.resources, search: links.search, manifest: links.x402Json },
      total: page.total,
      truncated: page.total > page.items.length,
    };
  }
}
