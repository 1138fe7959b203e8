import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';

/** What a v2 402 adds for discovery (x402 Bazaar): the resource's service name and tags, and `extensions`. */
export interface DiscoveryOffer {
  serviceName?: string;
  tags?: string[];
  extensions: Record<string, unknown>;
}

/** One POST route as a Bazaar listing describes it. */
export interface BazaarRoute {
  /** The concrete path asked (path params are read from it against `routeTemplate`). */
  path: string;
  /** The route pattern in `:param` syntax; absent for a static route. */
  routeTemplate?: string;
  body: Record<string, unknown>;
  bodySchema?: Record<string, unknown>;
  output: unknown;
  outputSchema?: Record<string, unknown>;
}

/** A schema as the discovery schema embeds it: its own `$id`/`$schema` left out (no external references). */
function embeddable(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  const { $id: _id, $schema: _schema, ...rest } = schema;
  return rest;
}

/**
 * `extensions.bazaar` for a JSON POST route, declared and enriched with `@x402/extensions` the way
 * the reference resource server does it at request time (method and route template).
 */
export function bazaarExtensions(route: BazaarRoute): Record<string, unknown> {
  const declared = declareDiscoveryExtension({
    bodyType: 'json',
    input: route.body,
    inputSchema: embeddable(route.bodySchema),
    output: { example: route.output ?? {}, schema: embeddable(route.outputSchema) },
  });
  const bazaar = bazaarResourceServerExtension.enrichDeclaration!(declared.bazaar, {
    method: 'POST',
    adapter: { getPath: () => route.path },
    routePattern: route.routeTemplate ?? route.path,
  });
  return { bazaar };
}

const PRINTABLE = /[^\x20-\x7e]/g;

/** Text as x402 resource metadata takes it: printable ASCII (accents dropped), spaces collapsed, at most `max` chars. */
function printable(text: string, max: number): string {
  return text.normalize('NFKD').replace(PRINTABLE, '').replace(/\s+/g, ' ').trim().slice(0, max).trim();
}

/** `resource.serviceName`: 1-32 printable ASCII characters (undefined when nothing printable is left). */
export function serviceNameOf(name: string): string | undefined {
  return printable(name, 32) || undefined;
}

/** `resource.tags`: printable ASCII, each 1-32 characters, deduplicated (case-insensitively), at most 5. */
export function tagsOf(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = printable(raw, 32);
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
    if (out.length === 5) break;
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical(v[k])]),
  );
}

/** Whether `actual` holds every key of `expected` with an equal value (extra keys allowed; scalars and arrays equal). */
export function containsSubset(expected: unknown, actual: unknown): boolean {
  if (!isRecord(expected)) return JSON.stringify(canonical(expected)) === JSON.stringify(canonical(actual));
  if (!isRecord(actual)) return false;
  return Object.entries(expected).every(([key, value]) =>
    Object.prototype.hasOwnProperty.call(actual, key) ? containsSubset(value, actual[key]) : value === undefined,
  );
}

const infoOf = (v: unknown): unknown => (isRecord(v) && Object.prototype.hasOwnProperty.call(v, 'info') ? v.info : v);

/**
 * The reference server's echo rule (`x402ResourceServer.validateExtensions`): for each extension a v2
 * payload echoes that the 402 offered, the offered `info` must be contained in the echoed one. Answers
 * the first extension key that does not match (null: the echo passes, or there is none).
 */
export function echoMismatch(offered: Record<string, unknown> | undefined, echoed: unknown): string | null {
  if (!isRecord(echoed) || !offered) return null;
  for (const [key, value] of Object.entries(echoed)) {
    if (!Object.prototype.hasOwnProperty.call(offered, key)) continue;
    if (!containsSubset(infoOf(offered[key]), infoOf(value))) return key;
  }
  return null;
}
