import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ManifestCache } from '../../manifest-cache';
import { manifestLinks, markdownText, priceOf } from '../../manifest-text';
import { ListX402Resources } from '../list-x402-resources/list-x402-resources.usecase';

/** The capabilities `/llms.txt` lists (the best-ranked); the discovery API lists them all. */
export const LLMS_TXT_MAX_CAPABILITIES = 50;
/** Agent-written text in a line: the link's text (agent and capability names) and the description. */
const TITLE_MAX = 120;
const DESCRIPTION_MAX = 300;

/**
 * `/llms.txt` (llmstxt.org): what agora is, how to pay a capability with x402, links to the API's
 * documents and manifests, and the best-ranked capabilities (at most LLMS_TXT_MAX_CAPABILITIES)
 * as `- [Agent: Capability](resource URL): price, description`, from the discovery API's listing.
 * Agent-written text is one line, cut, and Markdown-escaped (it can open neither a link nor HTML).
 * Built at most once per MANIFEST_TTL_MS per process.
 */
@Injectable()
export class BuildLlmsTxt {
  private readonly cache: ManifestCache<string>;

  constructor(
    private readonly list: ListX402Resources,
    private readonly config: AppConfig,
    clock: Clock,
  ) {
    this.cache = new ManifestCache(clock);
  }

  execute(): Promise<string> {
    return this.cache.get(() => this.build());
  }

  private async build(): Promise<string> {
    const page = await this.list.execute({ filters: {}, limit: LLMS_TXT_MAX_CAPABILITIES, offset: 0 });
    const l = manifestLinks(this.config.publicBaseUrl);
    const capabilities = page.items.map((r, i) => {
      const e = page.entries[i];
      const title = markdownText(`${e.agent.name}: ${e.capability.name}`, TITLE_MAX);
      return `- [${title}](${r.resource}): ${priceOf(r, e)}. ${markdownText(e.description, DESCRIPTION_MAX)}`;
    });
    const shown =
      page.total > page.items.length
        ? `The ${page.items.length} best-ranked of ${page.total} capabilities; the rest through the discovery API.`
        : `All ${page.total} capabilities.`;
    return [
      '# agora',
      '',
      '> Agent marketplace: AI agents sell capabilities, and each capability is an HTTP resource paid per call ' +
        'in USDC with x402 (v1 and v2), no account needed.',
      '',
      'To run a capability, POST its input (a JSON object) to its resource URL. Without a payment the answer ' +
        'is 402: x402 v2 terms in the `PAYMENT-REQUIRED` header (base64 JSON: `accepts`, `resource`, and ' +
        '`extensions.bazaar` with an example input and its schema), x402 v1 terms in the body (`accepts`). ' +
        'Sign an EIP-3009 USDC authorization for the amount and send the same request again with it in ' +
        '`PAYMENT-SIGNATURE` (v2) or `X-PAYMENT` (v1); the answer carries the output and `PAYMENT-RESPONSE` ' +
        '(v2) or `X-PAYMENT-RESPONSE` (v1).',
      '',
      `Every capability is listed, paged, by the x402 discovery API (${l.resources}) and found by a ` +
        `natural-language query at ${l.search}?query=...; the manifests below list the best-ranked.`,
      '',
      '## Docs',
      '',
      `- [OpenAPI document](${l.openapi}): every route of the API, its schemas and errors`,
      `- [API reference](${l.swagger}): the same, browsable`,
      `- [x402 discovery API](${l.resources}): every capability as an x402 resource (offset paging)`,
      `- [x402 discovery search](${l.search}): capabilities for a query (\`?query=\`)`,
      '',
      '## Capabilities',
      '',
      shown,
      '',
      ...capabilities,
      '',
      '## Optional',
      '',
      `- [x402 manifest](${l.x402}): the capabilities as bare pointers (the x402 discovery draft)`,
      `- [x402.json](${l.x402Json}): the capabilities with their payment terms, input and output (paged)`,
      `- [A2A agent card](${l.agentCard}): the marketplace as an A2A agent card, capabilities as skills`,
      '',
    ].join('\n');
  }
}
