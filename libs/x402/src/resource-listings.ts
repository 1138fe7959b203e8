import { Injectable } from '@nestjs/common';
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { PAYMENT_IDENTIFIER } from './payment-identifier';
import { exampleFromSchema, exampleObject } from './schema-example';
import { bazaarExtensions, DiscoveryOffer, serviceNameOf, tagsOf } from './x402-bazaar';
import { X402Service } from './x402.service';
import { PriceRequest } from './x402.types';

type Schema = Record<string, unknown>;

/** A JSON POST resource as its seller describes it; its listing's examples are built from the schemas. */
export interface ResourceListing {
  /** The seller's name (becomes `serviceName`: printable ASCII, at most 32 characters). */
  name: string;
  /** The most telling first (at most 5 kept, deduplicated). */
  tags: string[];
  /** The concrete path. */
  path: string;
  /** The route pattern in `:param` syntax, when every path it matches is one resource (Bazaar lists it once). */
  routeTemplate?: string;
  /** The schema of what the seller takes (an object when absent). */
  inputSchema: Schema | null | undefined;
  /** When the body wraps that input (an envelope naming the seller): the body for an input, and its schema. */
  envelope?: { body: (input: Schema) => Schema; schema: (inputSchema: Schema) => Schema };
  outputSchema: Schema | null | undefined;
}

/** What a discovery listing may be filtered by (the facilitator discovery API's filters), each as the client sent it. */
export interface ListingFilters {
  type?: string;
  payTo?: string;
  scheme?: string;
  network?: string;
  /** Extension keys (comma-separated) every listed resource must carry. */
  extensions?: string;
}

/** The extensions every paid resource's 402 offers. */
const OFFERED_EXTENSIONS = ['bazaar', PAYMENT_IDENTIFIER];

/**
 * The x402 side of being found: a resource's discovery metadata (service name, tags and
 * `extensions.bazaar` with an example body and output built from its schemas), a resource as the
 * facilitator discovery API lists it, and whether a listing filter keeps this deployment's resources.
 */
@Injectable()
export class ResourceListings {
  constructor(private readonly x402: X402Service) {}

  /** A resource's discovery metadata (the v2 402 carries it; building validates the Bazaar extension, about 1 ms). */
  static discovery(r: ResourceListing): DiscoveryOffer {
    const inputSchema = r.inputSchema ?? { type: 'object' };
    const input = exampleObject(inputSchema);
    return {
      serviceName: serviceNameOf(r.name),
      tags: tagsOf(r.tags),
      extensions: bazaarExtensions({
        path: r.path,
        routeTemplate: r.routeTemplate,
        body: r.envelope ? r.envelope.body(input) : input,
        bodySchema: r.envelope ? r.envelope.schema(inputSchema) : inputSchema,
        output: exampleFromSchema(r.outputSchema ?? undefined) ?? {},
        outputSchema: r.outputSchema ?? undefined,
      }),
    };
  }

  /** A priced resource as the discovery API lists it: its 402's resource, accepts and extensions. */
  resource(price: PriceRequest, lastUpdated: Date): DiscoveryResource {
    const { resource: r, accepts, extensions } = this.x402.offer(price).v2;
    return {
      resource: r.url,
      type: 'http',
      x402Version: 2,
      accepts: accepts as DiscoveryResource['accepts'],
      lastUpdated: lastUpdated.toISOString(),
      description: r.description,
      mimeType: r.mimeType,
      ...(r.serviceName ? { serviceName: r.serviceName } : {}),
      ...(r.tags?.length ? { tags: r.tags } : {}),
      ...(extensions ? { extensions } : {}),
    };
  }

  /**
   * Whether the deployment's resources pass the filters. Every resource pays the same wallet with
   * the same scheme, networks and extensions, so a filter keeps either all of them or none.
   */
  admits(f: ListingFilters): boolean {
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
