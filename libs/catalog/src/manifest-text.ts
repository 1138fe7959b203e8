import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CatalogEntry, VARIABLE_PRICING_MODELS } from '@app/agents';
import { formatMicros } from '@app/common';

/**
 * Control and format characters (NUL, bidi overrides, zero-width joiners and spaces: what could make
 * text display other than it reads) and lone surrogates: never copied from an agent's text into a manifest.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]|[\uD800-\uDFFF]/gu;

/**
 * Agent-written text as a manifest shows it: controls dropped, whitespace collapsed to one line,
 * at most `max` characters (cut with an ellipsis, never inside a surrogate pair).
 */
export function plainText(text: string, max: number): string {
  const clean = text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Markdown's inline syntax (links, emphasis, code, HTML) escaped with backslashes; `@` too (email autolinks). */
const MARKDOWN = /[\\`*_[\]()<>#!|~{}@]/g;
/** What starts a GFM autolink without brackets: a scheme's `://`, and `www.`. */
const AUTOLINK = /:(?=\/\/)|\b(?<=www)\./gi;

/**
 * plainText that Markdown shows as written: it can neither open a link (nor a bare-URL or `www.`
 * autolink) nor an HTML tag, nor start a line.
 */
export function markdownText(text: string, max: number): string {
  return plainText(text, max)
    .replace(MARKDOWN, (c) => `\\${c}`)
    .replace(AUTOLINK, (c) => `\\${c}`);
}

/**
 * What a call costs, from the resource's 402 (the first of its accepts: every network asks the same
 * amount): the price, or for a metered capability the most it takes (the unused part is refunded).
 */
export function priceOf(resource: DiscoveryResource, entry: CatalogEntry): string {
  const amount = (resource.accepts[0] as { amount?: unknown } | undefined)?.amount;
  if (typeof amount !== 'string' || !/^\d{1,30}$/.test(amount)) return 'priced in its 402';
  const usdc = `${formatMicros(amount)} USDC`;
  return VARIABLE_PRICING_MODELS.includes(entry.capability.pricingModel)
    ? `up to ${usdc} (${entry.capability.pricingModel}; the unused part is refunded)`
    : usdc;
}

/** Where the manifests point for more than they list. */
export function manifestLinks(base: string) {
  return {
    openapi: `${base}/api/docs-json`,
    swagger: `${base}/api/docs`,
    resources: `${base}/x402/discovery/resources`,
    search: `${base}/x402/discovery/search`,
    x402: `${base}/.well-known/x402`,
    x402Json: `${base}/.well-known/x402.json`,
    agentCard: `${base}/.well-known/agent-card.json`,
    llmsTxt: `${base}/llms.txt`,
  };
}
