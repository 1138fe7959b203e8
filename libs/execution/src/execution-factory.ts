import { AppConfig } from '@app/config';
import { ExecutableAgent, ExecutableCapability, VARIABLE_PRICING_MODELS } from '@app/agents';
import { formatMicros, newId } from '@app/common';
import { Fees, PaymentFundings } from '@app/payments';
import { ExecutionEntity } from './entities/execution.entity';
import { PricedRun } from './pricing';
import type { PaymentProof } from './execution.types';

/** A run's price: what the x402 offer states (amount, resource, description) and how the run is metered. */
export type ExecutionPrice = PricedRun & { amount: bigint; resource: string; description: string };

/**
 * What the client pays now: the platform fee plus basePrice, or plus maxPrice (the cap) for
 * variable pricing, where the unused part is refunded once the run is metered.
 */
export function priceFor(
  agent: ExecutableAgent,
  capability: ExecutableCapability,
  publicBaseUrl: string,
): ExecutionPrice {
  const variable = VARIABLE_PRICING_MODELS.includes(capability.pricingModel);
  const authorizedAgentFee = variable ? (capability.maxPrice ?? capability.basePrice) : capability.basePrice;
  return {
    pricingModel: capability.pricingModel,
    unitPrice: capability.basePrice,
    authorizedAgentFee,
    amount: Fees.platform + authorizedAgentFee,
    resource: `${publicBaseUrl}/api/v1/execute`,
    description: variable
      ? `${agent.name}: ${capability.name} (${capability.pricingModel}, up to ${formatMicros(authorizedAgentFee)} USDC; the unused part is refunded)`
      : `${agent.name}: ${capability.name}`,
  };
}

/** A new execution, pending, as it is about to be written. */
export function newExecution(o: {
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
}): ExecutionEntity {
  return Object.assign(new ExecutionEntity(), {
    id: newId('req'),
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
