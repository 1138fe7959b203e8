import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { validBazaar } from './bazaar-validator';

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
  /**
   * The route pattern in `:param` syntax; absent for a static route. A facilitator catalogues the
   * resource under it (`extractDiscoveryInfo`): every path it matches becomes one listing.
   */
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
  const full = declared(route, route.bodySchema, route.outputSchema);
  if (fits(full)) return { bazaar: full };
  // Too big for a header, or the example does not satisfy the schema (a pattern, a $ref, minItems):
  // the listing keeps the examples and the route, without the capability's schemas.
  const bare = declared(route, undefined, undefined);
  if (fits(bare)) return { bazaar: bare };
  return { bazaar: declared({ ...route, body: {}, output: {} }, undefined, undefined) };
}

/** The most the extension may take as JSON: the whole PAYMENT-REQUIRED header stays well under Node's 16 KB. */
export const BAZAAR_MAX_BYTES = 4_096;

function fits(bazaar: unknown): boolean {
  return JSON.stringify(bazaar).length <= BAZAAR_MAX_BYTES && validBazaar(bazaar);
}

function declared(
  route: BazaarRoute,
  bodySchema: Record<string, unknown> | undefined,
  outputSchema: Record<string, unknown> | undefined,
): unknown {
  const declaration = declareDiscoveryExtension({
    bodyType: 'json',
    input: route.body,
    inputSchema: embeddable(bodySchema),
    output: { example: route.output ?? {}, schema: embeddable(outputSchema) },
  });
  return bazaarResourceServerExtension.enrichDeclaration!(declaration.bazaar, {
    method: 'POST',
    adapter: { getPath: () => route.path },
    routePattern: route.routeTemplate ?? route.path,
  });
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

/** How deep an echoed extension is compared; anything deeper is a mismatch (a hostile echo cannot recurse further). */
const MAX_ECHO_DEPTH = 32;

function deepEqual(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth > MAX_ECHO_DEPTH || a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => deepEqual(v, other[i], depth + 1));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(rb, k) && deepEqual((a as Record<string, unknown>)[k], rb[k], depth + 1),
  );
}

/** Whether `actual` holds every key of `expected` with an equal value (extra keys allowed; scalars and arrays equal). */
export function containsSubset(expected: unknown, actual: unknown, depth = 0): boolean {
  if (depth > MAX_ECHO_DEPTH) return false;
  if (!isRecord(expected)) return deepEqual(expected, actual, depth);
  if (!isRecord(actual)) return false;
  return Object.entries(expected).every(([key, value]) =>
    Object.prototype.hasOwnProperty.call(actual, key)
      ? containsSubset(value, actual[key], depth + 1)
      : value === undefined,
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
