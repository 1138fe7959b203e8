import type { Funding } from '@app/payments';
import type { ExecutionEntity } from './entities/execution.entity';
import type { PaymentProof } from './execution.types';

/** A verified chain token as a reader of executions. */
export interface ChainReadGrant {
  /** FORBIDDEN unless the token's holder still runs and the execution is in its subtree (not the root). */
  assertReadable(execution: { id: string; chainId: string | null }): Promise<void>;
}

/**
 * What execution needs of chains, the product built on it a tier above (libs/chains): a port
 * execution declares and ChainsModule binds, as agents declares RegistrationFeeStep and payments
 * binds it. A run in a chain is paid by its node's reservation (an x402 payment's funding is
 * payments' PaymentFundings); a chain's paying header or a chain token reads its executions; a
 * chain root whose chain was never funded is ended unrun.
 */
export abstract class ChainPort {
  /** What pays for the run `executionId` of chain `chainId`: its node's reservation in the chain's budget. */
  abstract forNode(chainId: string, executionId: string): Promise<Funding>;

  /** A chain token as a reader (401 CHAIN_TOKEN_INVALID or CHAIN_TOKEN_EXPIRED when it does not verify). */
  abstract readGrant(chainToken: string): ChainReadGrant;

  /** Whether `payment` is the header that paid for the chain `chainId` (false when no such chain). */
  abstract paidChain(chainId: string, payment: PaymentProof | null): Promise<boolean>;

  /**
   * A chain root whose chain was never funded (still pending: its request ended first): the chain
   * is funded and ended unrun, all of it refunded. False, nothing done, when the chain is not pending.
   */
  abstract endUnfunded(root: ExecutionEntity): Promise<boolean>;
}
