import { ExecutableAgent, ExecutableCapability } from '@app/agents';
import { ResourceListings } from '@app/x402';
import { ExecuteRoute, executePath } from './routes';

/** A capability's x402 discovery metadata (service name, tags, the Bazaar extension). */
export type DiscoveryOffer = ReturnType<typeof ResourceListings.discovery>;

/**
 * How a capability is listed for x402 discovery on a route: the service name (the agent's), the tags
 * (the capability id, then the agent's own) and `extensions.bazaar` with an example body and output built from its schemas.
 * The /execute route's body wraps the input; the capability's own resource takes the input itself.
 * No route template: Bazaar catalogues a resource under its template (`extractDiscoveryInfo` keys it
 * `origin + routeTemplate`), and each capability is a resource of its own, so each keeps its concrete URL.
 */
export function discoveryFor(
  agent: ExecutableAgent,
  capability: ExecutableCapability,
  route: ExecuteRoute,
): DiscoveryOffer {
  const { capabilityId } = capability;
  return ResourceListings.discovery({
    name: agent.name,
    tags: [capabilityId, ...(agent.tags ?? [])],
    path: executePath(route, agent.id, capabilityId),
    inputSchema: capability.inputSchema,
    outputSchema: capability.outputSchema,
    envelope:
      route === 'capability'
        ? undefined
        : {
            body: (input) => ({ targetAgentId: agent.id, capabilityId, input }),
            schema: (inputSchema) => ({
              type: 'object',
              properties: {
                targetAgentId: { type: 'string', const: agent.id },
                capabilityId: { type: 'string', const: capabilityId },
                input: inputSchema,
              },
              required: ['targetAgentId', 'capabilityId', 'input'],
            }),
          },
  });
}

/**
 * Built once per capability object (the execute target cache hands out the same one until the agent
 * changes): building validates the extension against its schema, a compile too dear for every 402.
 */
const discoveries = new WeakMap<ExecutableCapability, Map<string, DiscoveryOffer>>();

export function cachedDiscovery(agent: ExecutableAgent, capability: ExecutableCapability, route: ExecuteRoute) {
  let byRoute = discoveries.get(capability);
  if (!byRoute) discoveries.set(capability, (byRoute = new Map()));
  const key = `${route}\n${agent.id}\n${agent.name}\n${(agent.tags ?? []).join('\n')}`;
  let offer = byRoute.get(key);
  if (!offer) byRoute.set(key, (offer = discoveryFor(agent, capability, route)));
  return offer;
}
