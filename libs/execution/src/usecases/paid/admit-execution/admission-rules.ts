import { createHash } from 'node:crypto';
import { ExecuteTarget } from '@app/agents';
import { AppException, formatMicros, ValidationException } from '@app/common';
import { canonicalJson } from '@app/json-schema';
import { AdmitPayment } from '@app/payments';
import { ExecutionPrice } from '@app/catalog';
import { ExecuteCommand } from '../../../execution.types';

/** A chain root's price: the root's own cost plus the budget it funds (one payment covers both). */
export function withChainBudget(price: ExecutionPrice, budget: bigint | undefined): ExecutionPrice {
  if (budget === undefined) return price;
  return {
    ...price,
    // A chain root takes no idempotency key: its 402 offers no payment identifier either.
    paymentIdentifier: false,
    amount: price.amount + budget,
    description: `${price.description}, opening a chain with a budget of ${formatMicros(budget)} USDC`,
  };
}

/** Opening a chain at an agent: it must take part in chains, and the depth asked for is within what it allows. */
export function checkChainRoot(settings: ExecuteTarget['agent']['chainSettings'], maxDepth: number | null): void {
  if (!settings.chain_enabled)
    throw new AppException('CHAIN_DISABLED', 'The target agent has chaining disabled: it cannot open a chain');
  if (maxDepth !== null && maxDepth > settings.chain_max_depth) {
    throw new ValidationException([
      {
        field: 'chain.maxDepth',
        messages: [`chain.maxDepth must be at most ${settings.chain_max_depth}, the most this agent allows`],
      },
    ]);
  }
}

/**
 * The idempotency key of a request: `idempotencyKey`, or the x402 payment identifier of its payment
 * (one record in the same store, whichever the client sent; both must then be equal). A chain root
 * takes neither. With PAYMENT_IDENTIFIER_REQUIRED, a recovered payment without one is 400.
 */
export function idempotencyKeyOf(
  cmd: ExecuteCommand,
  payment: Pick<ReturnType<AdmitPayment['execute']>, 'signer' | 'paymentId'>,
  required: boolean,
): string | undefined {
  if (cmd.chain) return cmd.idempotencyKey;
  const id = payment.paymentId;
  if (required && payment.signer && !id)
    throw new ValidationException([
      {
        field: 'payment-identifier',
        messages: ['this route requires an x402 payment identifier (the payment-identifier extension of a v2 payment)'],
      },
    ]);
  if (id && cmd.idempotencyKey !== undefined && id !== cmd.idempotencyKey)
    throw new ValidationException([
      {
        field: 'idempotencyKey',
        messages: ['the idempotency key and the payment identifier differ; send one, or both equal'],
      },
    ]);
  return cmd.idempotencyKey ?? id ?? undefined;
}

export const idempotencyConflict = (key: string) =>
  new AppException('IDEMPOTENCY_CONFLICT', 'This idempotencyKey was used with another agent, capability or input', {
    idempotencyKey: key,
  });

/**
 * What an idempotency key is bound to: SHA-256 of the agent, the capability and the canonical input.
 * The transports give the agent id in lower case and capabilities match exactly, so it is the
 * target's own ids before the target is read.
 */
export function fingerprintOf(cmd: Pick<ExecuteCommand, 'agentId' | 'capabilityId' | 'input'>): string {
  return createHash('sha256')
    .update(`${cmd.agentId}\n${cmd.capabilityId}\n${canonicalJson(cmd.input)}`)
    .digest('hex');
}
