import { Injectable } from '@nestjs/common';
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CatalogEntry } from '@app/agents';
import { AppConfig } from '@app/config';
import { PAYMENT_IDENTIFIER, X402Service } from '@app/x402';
import { capabilityOffer } from '../execution-factory';

/** What a catalogue may be asked to keep (the facilitator discovery API's filters). */
export interface X402ResourceFilters {
  type?: string;
  payTo?: string;
  scheme?: string;
  network?: string;
  /** Extension keys (comma-separated) every listed resource must carry. */
  extensions?: string;
}

/** The extensions every capability's 402 offers. */
const OFFERED_EXTENSIONS = ['bazaar', PAYMENT_IDENTIFIER];

/** Listings kept built, the least recently used dropped past it (about 2 KB each). */
const BUILT_MAX = 20_000;

/**
 * A capability as an x402 discovery resource: the same offer as its 402 (resource, accepts and
 * extensions from `capabilityOffer`), with `type`, `x402Version` and `lastUpdated`. Building one
 * validates its Bazaar extension (about a millisecond), so each is kept until its agent's
 * config_version moves. Every resource of a deployment pays the same wallet with the same
 * scheme, networks and extensions, so a filter keeps either all of them or none (`admits`).
 */
@Injectable()
export class X402Resources {
  private readonly built = new Map<string, DiscoveryResource>();

  constructor(
    private readonly x402: X402Service,
    private readonly config: AppConfig,
  ) {}

  of(entry: CatalogEntry): DiscoveryResource {
    const key = `${entry.agent.id}\n${entry.capability.capabilityId}\n${entry.version}`;
    let resource = this.built.get(key);
    if (resource) {
      this.built.delete(key);
    } else {
      const {
        resource: r,
        accepts,
        extensions,
      } = capabilityOffer(this.x402, entry.agent, entry.capability, this.config.publicBaseUrl);
      resource = {
        resource: r.url,
        type: 'http',
        x402Version: 2,
        accepts: accepts as DiscoveryResource['accepts'],
        lastUpdated: entry.updatedAt.toISOString(),
        description: r.description,
        mimeType: r.mimeType,
        ...(r.serviceName ? { serviceName: r.serviceName } : {}),
        ...(r.tags?.length ? { tags: r.tags } : {}),
        ...(extensions ? { extensions } : {}),
      };
      if (this.built.size >= BUILT_MAX) this.built.delete(this.built.keys().next().value!);
    }
    this.built.set(key, resource);
    return resource;
  }

  /** Whether the deployment's resources pass the filters (each filter compared as the client sent it). */
  admits(f: X402ResourceFilters): boolean {
    if (f.type !== undefined && f.type !== 'http') return false;
    if (f.scheme !== undefined && f.scheme !== 'exact') return false;
    if (f.payTo !== undefined && f.payTo.toLowerCase() !== this.x402.payToAddress().toLowerCase()) return false;
    if (
      f.network !== undefined &&
      !this.x402.options.some((o) => [o.network.caip2, o.network.name].includes(f.network!))
    )
      return false;
    if (f.extensions !== undefined) {
      const wanted = f.extensions
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      if (wanted.some((key) => !OFFERED_EXTENSIONS.includes(key))) return false;
    }
    return true;
  }
}
