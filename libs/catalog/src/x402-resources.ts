import { Injectable } from '@nestjs/common';
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CatalogEntry } from '@app/agents';
import { AppConfig } from '@app/config';
import { ResourceListings } from '@app/x402';
import { priceFor } from './pricing';

/** What a catalogue may be asked to keep (the facilitator discovery API's filters). */
export type X402ResourceFilters = Parameters<ResourceListings['admits']>[0];

/** Listings kept built, the least recently used dropped past it (about 2 KB each). */
const BUILT_MAX = 20_000;

/**
 * A capability as an x402 discovery resource: the same offer as its own route's 402 (resource,
 * accepts and extensions), with `type`, `x402Version` and `lastUpdated`. Building one validates
 * its Bazaar extension (about a millisecond), so each is kept until its agent's config_version
 * moves. Whether a filter keeps the deployment's resources is `admits` (all of them or none).
 */
@Injectable()
export class X402Resources {
  private readonly built = new Map<string, DiscoveryResource>();

  constructor(
    private readonly listings: ResourceListings,
    private readonly config: AppConfig,
  ) {}

  of(entry: CatalogEntry): DiscoveryResource {
    const key = `${entry.agent.id}\n${entry.capability.capabilityId}\n${entry.version}`;
    let resource = this.built.get(key);
    if (resource) {
      this.built.delete(key);
    } else {
      const price = priceFor(entry.agent, entry.capability, this.config.publicBaseUrl, 'capability');
      resource = this.listings.resource(price, entry.updatedAt);
      if (this.built.size >= BUILT_MAX) this.built.delete(this.built.keys().next().value!);
    }
    this.built.set(key, resource);
    return resource;
  }

  /** Whether the deployment's resources pass the filters (each filter compared as the client sent it). */
  admits(f: X402ResourceFilters): boolean {
    return this.listings.admits(f);
  }
}
