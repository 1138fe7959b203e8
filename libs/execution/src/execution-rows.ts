import { AppConfig } from '@app/config';
import { ExecutableAgent, ExecutableCapability, VARIABLE_PRICING_MODELS } from '@app/agents';
import { formatMicros, newId } from '@app/common';
import { Fees, PaymentFundings } from '@app/payments';
import { ExecutionEntity } from './entities/execution.entity';
import { ResourceListings } from '@app/x402';
import { PricedRun } from './pricing';
import type { ExecuteRoute, PaymentProof } from './execution.types';

/** A capability's x402 discovery metadata (service name, tags, the Bazaar extension). */
type DiscoveryOffer = ReturnType<typeof ResourceListings.discovery>;

/** A run's price: what the x402 offer states (amount, resource, description) and how the run is metered. */
export type ExecutionPrice = PricedRun & {
  amount: bigint;
  resource: string;
  description: string;
  discovery: () => DiscoveryOffer;
  /** The route takes an x402 payment identifier (an idempotency key in the payment). */
  paymentIdentifier: boolean;
};

/** The path of a route for one capability. */
export function executePath(route: ExecuteRoute, agentId: string, capabilityId: string): string {
  return route === 'execute'
    ? '/api/v1/execute'
    : `/api/v1/agents/${encodeURIComponent(agentId)}/capabilities/${encodeURIComponent(capabilityId)}/execute`;
}

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

function cachedDiscovery(agent: ExecutableAgent, capability: ExecutableCapability, route: ExecuteRoute) {
  let byRoute = discoveries.get(capability);
  if (!byRoute) discoveries.set(capability, (byRoute = new Map()));
  const key = `${route}\n${agent.id}\n${agent.name}\n${(agent.tags ?? []).join('\n')}`;
  let offer = byRoute.get(key);
  if (!offer) byRoute.set(key, (offer = discoveryFor(agent, capability, route)));
  return offer;
}

/**
 * What the client pays now: the platform fee plus basePrice, or plus maxPrice (the cap) for
 * variable pricing, where the unused part is refunded once the run is metered.
 */
export function priceFor(
  agent: ExecutableAgent,
  capability: ExecutableCapability,
  publicBaseUrl: string,
  route: ExecuteRoute = 'execute',
): ExecutionPrice {
  const variable = VARIABLE_PRICING_MODELS.includes(capability.pricingModel);
  let discovery: DiscoveryOffer | undefined;
  const authorizedAgentFee = variable ? (capability.maxPrice ?? capability.basePrice) : capability.basePrice;
  return {
    pricingModel: capability.pricingModel,
    unitPrice: capability.basePrice,
    authorizedAgentFee,
    amount: Fees.platform + authorizedAgentFee,
    resource: `${publicBaseUrl}${executePath(route, agent.id, capability.capabilityId)}`,
    description: variable
      ? `${agent.name}: ${capability.name} (${capability.pricingModel}, up to ${formatMicros(authorizedAgentFee)} USDC; the unused part is refunded)`
      : `${agent.name}: ${capability.name}`,
    discovery: () => (discovery ??= cachedDiscovery(agent, capability, route)),
    paymentIdentifier: true,
  };
}

/** A new execution, pending, as it is about to be written. */
export function newExecution(o: {
  /** Its id, when chosen beforehand (a keyed request's in-flight claim names it). */
  id?: string;
  agentId: string;
  capabilityId: string;
  payer: string;
  input: Record<string, unknown>;
  price: PricedRun;
  paymentId: string | null;
  headerHash: string | null;
  chainId?: string | null;
  isAsync: boolean;
  callbackUrl: string | null;
  lockedUntil: Date | null;
  route?: ExecuteRoute;
}): ExecutionEntity {
  return Object.assign(new ExecutionEntity(), {
    id: o.id ?? newId('req'),
    agentId: o.agentId,
    capabilityId: o.capabilityId,
    payer: o.payer.toLowerCase(),
    input: o.input,
    output: null,
    status: 'pending',
    settlementStatus: null,
    agentError: null,
    executionTimeMs: null,
    retryCount: 0,
    agentFee: o.price.authorizedAgentFee,
    authorizedAgentFee: o.price.authorizedAgentFee,
    pricingModel: o.price.pricingModel,
    unitPrice: o.price.unitPrice,
    usageTokens: null,
    refundId: null,
    platformFee: Fees.platform,
    paymentId: o.paymentId,
    chainId: o.chainId ?? null,
    transactionId: null,
    headerHash: o.headerHash,
    isAsync: o.isAsync,
    callbackUrl: o.callbackUrl,
    nextAttemptAt: null,
    lockedUntil: o.lockedUntil,
    completedAt: null,
    receipt: null,
    route: o.route ?? 'execute',
    payloadPrunedAt: null,
    inputSha256: null,
    outputSha256: null,
  });
}

/** How long a run may hold its claim: the agent timeout plus RUN_CLAIM_GRACE_MS (a minute) for settling. */
export function runClaimUntil(nowMs: number, config: Pick<AppConfig, 'executionTimeoutMs' | 'runClaimGraceMs'>): Date {
  return new Date(nowMs + config.executionTimeoutMs + config.runClaimGraceMs);
}

/**
 * Whether a request presents the payment of the original execute call (its SHA-256 compared; the
 * header is never stored in clear): the proof for reading the output and for retrying.
 */
export function presentsOriginalPayment(
  execution: Pick<ExecutionEntity, 'headerHash'>,
  payment: PaymentProof | null,
): boolean {
  return PaymentFundings.presents(payment, execution.headerHash);
}
