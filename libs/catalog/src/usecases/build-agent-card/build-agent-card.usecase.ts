import { Injectable } from '@nestjs/common';
import type { AgentCard, AgentInterface, AgentSkill } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { DiscoveryResource } from '@x402/extensions/bazaar';
import { CatalogEntry } from '@app/agents';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ManifestCache } from '../../manifest-cache';
import { manifestLinks, plainText, priceOf } from '../../manifest-text';
import { ListX402Resources } from '../list-x402-resources/list-x402-resources.usecase';

/** The card as `@a2a-js/sdk` types it (A2A protocol 1.0). */
export type MarketplaceAgentCard = AgentCard;

/** The capabilities the card lists as skills (the best-ranked); the discovery API lists them all. */
export const AGENT_CARD_MAX_SKILLS = 50;
/** The A2A protocol version of the card (the SDK's A2A_PROTOCOL_VERSION; its module is ESM, so not imported here). */
const A2A_VERSION = '1.0';
/**
 * The binding agora serves, named by a URI as A2A 1.0 §5.8 wants a custom binding named: x402 over
 * HTTP (the x402 v2 HTTP transport; v1 is accepted too), by the URI of its specification.
 */
export const X402_HTTP_BINDING = 'https://github.com/x402-foundation/x402/blob/main/specs/transports-v2/http.md';
/** A skill's name and description as the card shows them (agent-written text, cut). */
const SKILL_NAME_MAX = 120;
const SKILL_DESCRIPTION_MAX = 400;

/**
 * The marketplace's A2A agent card (`/.well-known/agent-card.json`, A2A protocol 1.0, typed with
 * `@a2a-js/sdk`). agora does not speak A2A's message bindings (JSON-RPC, gRPC or HTTP+JSON): the one
 * interface it declares (A2A 1.0 requires one) is the one it serves, x402 over HTTP at
 * `/api/v1/execute` (which runs any skill), named by a binding URI that no A2A client takes for its
 * own; and no extension (a2a-x402 is about A2A message metadata). The skills name their own x402 resources.
 * Each skill is a capability (id `<agentId>/<capabilityId>`) with its price and resource URL, the
 * best-ranked first, at most AGENT_CARD_MAX_SKILLS. Built at most once per MANIFEST_TTL_MS per process.
 */
@Injectable()
export class BuildAgentCard {
  private readonly cache: ManifestCache<AgentCard>;

  constructor(
    private readonly list: ListX402Resources,
    private readonly config: AppConfig,
    clock: Clock,
  ) {
    this.cache = new ManifestCache(clock);
  }

  execute(): Promise<AgentCard> {
    return this.cache.get(() => this.build());
  }

  private async build(): Promise<AgentCard> {
    const page = await this.list.execute({ filters: {}, limit: AGENT_CARD_MAX_SKILLS, offset: 0 });
    const base = this.config.publicBaseUrl;
    const links = manifestLinks(base);
    const shown =
      page.total > page.items.length
        ? `The ${page.items.length} best-ranked of ${page.total} capabilities are listed as skills; all of them at ${links.resources}.`
        : `Every capability (${page.total}) is listed as a skill.`;
    return {
      name: 'agora',
      description:
        'Agent marketplace: AI agents sell capabilities, each paid per call in USDC with x402 (v1 and v2). ' +
        'agora does not speak the A2A message protocol: call a skill by POSTing its input (JSON) to its ' +
        'resource URL; the 402 answer states the price, and the same request with an x402 payment runs it. ' +
        `${shown} API: ${links.openapi}.`,
      supportedInterfaces: [x402Interface(base)],
      provider: { url: base, organization: 'agora' },
      version: '1',
      documentationUrl: links.swagger,
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      skills: page.items.map((r, i) => skillOf(r, page.entries[i])),
      signatures: [],
    };
  }
}

/** agora's interface: a paid POST of `{targetAgentId, capabilityId, input}` runs any skill (x402 over HTTP). */
function x402Interface(base: string): AgentInterface {
  return {
    url: `${base}/api/v1/execute`,
    protocolBinding: X402_HTTP_BINDING,
    tenant: '',
    protocolVersion: A2A_VERSION,
  };
}

function skillOf(r: DiscoveryResource, entry: CatalogEntry): AgentSkill {
  return {
    id: `${entry.agent.id}/${entry.capability.capabilityId}`,
    name: plainText(`${entry.agent.name}: ${entry.capability.name}`, SKILL_NAME_MAX),
    description: `${plainText(entry.description, SKILL_DESCRIPTION_MAX)} Price: ${priceOf(r, entry)} a call, paid with x402. POST ${r.resource}`,
    tags: r.tags ?? [entry.capability.capabilityId],
    examples: [],
    inputModes: ['application/json'],
    outputModes: ['application/json'],
    securityRequirements: [],
  };
}
