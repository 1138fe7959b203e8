import type { ExecuteRoute } from '@app/catalog';
import type { AdmitPayment, PaymentFundings } from '@app/payments';
import type { RateLimitState } from './admission/rate-limiter';
import type { ExecutionEntity } from './entities/execution.entity';

export const MAX_RETRIES = 3;

/** An execute request, as a transport hands it over (no HTTP in it). */
export interface ExecuteCommand {
  agentId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  callbackUrl?: string;
  idempotencyKey?: string;
  async: boolean;
  /** The route it came by (default `execute`): names the 402's resource and its discovery listing. */
  route?: ExecuteRoute;
  /** The x402 payment presented with the request, if any. */
  payment: PaymentProof | null;
  /** The caller's address: who is counted while no verified payment names the payer. */
  clientIp: string;
  /** A chain root: the budget (micro-USDC) the payment adds to the root's cost, and the depth asked for (null: the most the root agent allows). */
  chain?: { budget: bigint; maxDepth: number | null };
  /** A chained call: the caller's X-Chain-Token (no payment). */
  chainToken?: string;
}

/** What a settled execution shows about its payment: the hash, the x402 receipt (rendered by the transport), the refund. */
export type Settlement = Awaited<ReturnType<PaymentFundings['settlementOf']>>;

/** The x402 payment header a request presents (X-PAYMENT or PAYMENT-SIGNATURE), as AdmitPayment takes it. */
export type PaymentProof = NonNullable<Parameters<AdmitPayment['execute']>[0]>;

/** An execution after a run, with its settlement when this call charged it (so nothing is read back). */
export interface ExecutionOutcome {
  execution: ExecutionEntity;
  settlement: Settlement | null;
  /**
   * The payment was written (its money may move, or moved) but the run's end could not be recorded or
   * read back (Postgres failed): never an answer that invites paying again. The execution says what is
   * known (its settlement `settlement_pending`, or the outcome when known); it is read by its id later.
   */
  unconfirmed?: { txHash: string | null };
}

export interface ExecuteResult extends ExecutionOutcome {
  /** An idempotent repeat: the stored execution, nothing charged. */
  replayed: boolean;
  /** The rate-limit windows after this request (every execute answer shows them). */
  limits: RateLimitState;
}

/** An execute request refused after it was counted: the error, and the windows it was counted in. */
export class ExecuteRejected extends Error {
  constructor(
    readonly error: unknown,
    readonly limits: RateLimitState,
  ) {
    super(error instanceof Error ? error.message : 'execute request refused');
    this.name = 'ExecuteRejected';
  }
}
