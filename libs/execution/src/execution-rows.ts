import { AppConfig } from '@app/config';
import { ExecuteRoute, PricedRun } from '@app/catalog';
import { newId } from '@app/common';
import { Fees, PaymentFundings } from '@app/payments';
import { ExecutionEntity } from './entities/execution.entity';
import type { PaymentProof } from './execution.types';

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
