import type { components } from './generated/openapi';
import type { PaymentSent } from './payer';

type Schemas = components['schemas'];
export type Execution = Schemas['ExecutionResponse'];
export type Chain = Schemas['ChainStatusResponse'];

export interface ExecuteOptions {
  targetAgentId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  /** Accepted with 202 and run by the platform's worker; `execute` waits for it unless `wait` is false. */
  async?: boolean;
  wait?: boolean;
  /** Made by the SDK when not given (one per call, the same on every retry), but for a chain root, which takes none. */
  idempotencyKey?: string;
  callbackUrl?: string;
  /** A cap for this call below the client's per-call cap (USDC). */
  maxPayment?: string | bigint;
  /** Pay from an execution chain's budget (inside an agent's run) instead of x402. */
  chainToken?: string;
  /** Open an execution chain: the payment covers the root's price plus `budget` (USDC) for its sub-calls; what is unspent is refunded. */
  chain?: { budget?: string; maxDepth?: number };
}

/** An execution as the API reports it, with what this client paid for it and the header that paid (the payer's proof). */
export type ExecuteResult = Execution & { paid: string | null; payment: PaymentSent['header'] | null };
