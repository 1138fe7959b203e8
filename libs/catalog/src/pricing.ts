import { ExecutableAgent, ExecutableCapability, PricingModel, VARIABLE_PRICING_MODELS } from '@app/agents';
import { formatMicros, Usdc } from '@app/common';
import { Fees } from '@app/payments';
import { cachedDiscovery, DiscoveryOffer } from './discovery';
import { ExecuteRoute, executePath } from './routes';

/** What the agent reported about a run (resolutions §4: `{output, usage?: {tokens}, cost?}`). */
export interface AgentUsage {
  tokens?: unknown;
  cost?: unknown;
  timeMs: number;
}

export interface PricedRun {
  pricingModel: PricingModel;
  /** basePrice at the time of the call (micro-USDC). */
  unitPrice: bigint;
  /** The agent fee the payment covers: basePrice, or maxPrice for variable pricing. */
  authorizedAgentFee: bigint;
}

/** A run's price: what the x402 offer states (amount, resource, description) and how the run is metered. */
export type ExecutionPrice = PricedRun & {
  amount: bigint;
  resource: string;
  description: string;
  discovery: () => DiscoveryOffer;
  /** The route takes an x402 payment identifier (an idempotency key in the payment). */
  paymentIdentifier: boolean;
};

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

export type MeteredFee = { ok: true; agentFee: bigint; tokens: number | null } | { ok: false; error: string };

/**
 * The agent fee of a finished run (resolutions §2): per-request = basePrice; per-token =
 * basePrice per 1,000 reported tokens; per-minute = basePrice per minute, billed per started
 * second; dynamic = the cost the agent returns. Rounded half-up to a micro-unit and capped at
 * maxPrice. A variable-price agent that does not report what it must is a failed run.
 */
export function meterAgentFee(p: PricedRun, usage: AgentUsage): MeteredFee {
  const cap = (fee: Usdc) => (fee.micros < p.authorizedAgentFee ? fee.micros : p.authorizedAgentFee);
  const unit = Usdc.fromMicros(p.unitPrice);
  switch (p.pricingModel) {
    case 'per-request':
      return { ok: true, agentFee: p.unitPrice, tokens: tokensOf(usage.tokens) };
    case 'per-token': {
      const tokens = tokensOf(usage.tokens);
      if (tokens === null)
        return { ok: false, error: 'per-token pricing: the agent must report usage.tokens (a non-negative integer)' };
      return { ok: true, agentFee: cap(unit.mulDiv(BigInt(tokens), 1_000n)), tokens };
    }
    case 'per-minute': {
      const seconds = BigInt(Math.max(1, Math.ceil(usage.timeMs / 1000)));
      return { ok: true, agentFee: cap(unit.mulDiv(seconds, 60n)), tokens: tokensOf(usage.tokens) };
    }
    case 'dynamic': {
      const cost = typeof usage.cost === 'string' ? Usdc.tryParse(usage.cost) : null;
      if (cost === null)
        return {
          ok: false,
          error: 'dynamic pricing: the agent must return cost as a decimal string with at most 6 decimals',
        };
      return { ok: true, agentFee: cap(cost), tokens: tokensOf(usage.tokens) };
    }
  }
}

function tokensOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= 2_147_483_647 ? v : null;
}
