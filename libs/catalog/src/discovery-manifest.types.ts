/**
 * The `/.well-known/x402.json` manifest of the x402 well-known discovery draft
 * (x402-foundation/x402 specs/extensions/well-known-discovery.md; types from its
 * `typescript/packages/core/src/types/discovery.ts`, which the installed @x402/core does not ship yet).
 */
export interface DiscoveryInput {
  method?: string;
  /** The route pattern, `:param` syntax. */
  routeTemplate?: string;
  /** JSON Schema of the path parameters. */
  pathParams?: Record<string, unknown>;
  queryParams?: Record<string, unknown>;
  /** JSON Schema of the request body (its example when no schema was declared). */
  body?: Record<string, unknown>;
  bodyType?: string;
}

export interface DiscoveryOutput {
  mimeType?: string;
  example?: unknown;
  schema?: Record<string, unknown>;
}

export interface DiscoveryManifestResource {
  resource: { url: string; description?: string; mimeType?: string; serviceName?: string; tags?: string[] };
  type: string;
  /** The v2 PaymentRequirements of the resource's 402 (advisory: the live 402 is authoritative). */
  accepts: Record<string, unknown>[];
  input: DiscoveryInput;
  output?: DiscoveryOutput;
  requires?: string[];
}

export interface DiscoveryManifest {
  x402Version: number;
  /** Unix seconds: when this manifest was built. */
  lastUpdated?: number;
  items: DiscoveryManifestResource[];
}
