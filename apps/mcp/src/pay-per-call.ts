import { AgoraClient, AgoraError, CapabilityCallResult, paymentSignatureHeader, X402Document } from '@agora/sdk';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { EXECUTION_META, idempotencyKeyFor, PAYMENT_RESPONSE_META, PaymentMeta, readPaymentMeta } from './payment-meta';
import { listedAs, toListedSchema } from './schemas';
import { AgoraTools, describeError, Pin, pinnedCapabilities, ToolDefinition } from './tools';

/** A tool paid per call by the MCP client itself: it answers its own result, payment metadata included. */
export interface PaidToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Checks the arguments first; null for a pinned capability, whose input agora checks. */
  input: z.ZodObject | null;
  listed: z.ZodObject;
  annotations: ToolAnnotations;
  /** The call, with the request's `_meta` (where the x402 MCP transport puts the payment). */
  call(args: Record<string, unknown>, meta: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

type Target = { agentId: string; capabilityId: string; input: Record<string, unknown> };

/** Spends the caller's USDC (its own payment) and runs a third party's agent. */
const PAID: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
/** The reads that need no wallet: discovery, prices, the state of executions, chains and disputes. */
const FREE = new Set([
  'discover',
  'recommend',
  'budget_check',
  'get_execution',
  'get_chain',
  'chain_cost',
  'get_dispute',
]);
const HOW_TO_PAY =
  'Paid per call with x402 (the MCP transport): called without `_meta["x402/payment"]` it answers the PaymentRequired (isError, structuredContent); call it again with the same arguments and the PaymentPayload in `_meta["x402/payment"]`. The result is the output, with the settlement in `_meta["x402/payment-response"]`.';

const executeCapability = z.strictObject({
  agentId: z.string().min(1).describe('agent id (discover or recommend find them)'),
  capabilityId: z.string().min(1).describe('capability id, e.g. "translate"'),
  input: z.record(z.string(), z.unknown()).describe("the capability's input (its inputSchema)"),
});

const text = (t: string) => ({ type: 'text' as const, text: t });

/**
 * Pay-per-call mode: agora's capabilities served to MCP clients that pay each call themselves, per
 * the x402 MCP transport. The server holds no key: a paid tool forwards the client's PaymentPayload
 * to the capability's own resource on agora (`PAYMENT-SIGNATURE`) and answers what agora answered.
 */
export class PayPerCallTools {
  constructor(private readonly client: AgoraClient) {}

  /** The free reads of wallet mode, less what needs this server's wallet (execute, disputes filed, spending). */
  free(): ToolDefinition[] {
    return new AgoraTools(this.client)
      .static()
      .filter((t) => FREE.has(t.name))
      .map((t) =>
        t.name === 'get_execution'
          ? { ...t, description: "An execution by requestId: its status (the output is in the paid call's result)." }
          : t,
      );
  }

  /** `execute_capability`: any capability of any agent, found with the free discovery tools. */
  generic(): PaidToolDefinition {
    return {
      name: 'execute_capability',
      title: 'Run a capability, paid per call',
      description: `Run an agent's capability on the agora marketplace and pay its price in USDC. ${HOW_TO_PAY}`,
      input: executeCapability,
      listed: listedAs(toListedSchema(executeCapability)),
      annotations: PAID,
      call: (args, meta) => {
        const a = args as z.output<typeof executeCapability>;
        return this.call({ agentId: a.agentId, capabilityId: a.capabilityId, input: a.input }, meta);
      },
    };
  }

  /** One tool per pinned capability, its input schema the capability's own. */
  async pinned(pins: Pin[]): Promise<PaidToolDefinition[]> {
    return (await pinnedCapabilities(this.client, pins)).map((p) => ({
      name: p.name,
      title: p.title,
      description: `${p.about} (${p.price}). ${HOW_TO_PAY}`,
      input: null,
      listed: p.listed,
      annotations: PAID,
      call: (input, meta) => this.call({ agentId: p.agentId, capabilityId: p.capabilityId, input }, meta),
    }));
  }

  private async call(target: Target, meta: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const payment: PaymentMeta = readPaymentMeta(meta);
    if (payment.kind === 'invalid')
      return this.refused(target, 'invalid_payment', `PAYMENT_INVALID: _meta["x402/payment"] ${payment.reason}`);
    let answer: CapabilityCallResult;
    try {
      answer = await this.client.callCapability({
        ...target,
        ...(payment.kind === 'payload'
          ? { payment: paymentSignatureHeader(payment.payload), idempotencyKey: idempotencyKeyFor(payment.payload) }
          : {}),
      });
    } catch (err) {
      // An authorization agora has seen used, under another key: it paid something already, so the
      // answer is where to find that, never a request to pay again.
      if (err instanceof AgoraError && err.code === 'PAYMENT_REPLAYED') return replayed(err, payment);
      return failure(err);
    }
    if (answer.kind === 'payment-required')
      return paymentRequired(answer.paymentRequired, payment.kind === 'none' ? null : describeError(answer.error));
    return executed(answer);
  }

  /**
   * A payment refused before agora could answer it with a 402 (malformed here, or replayed): the
   * capability's current PaymentRequired (agora's 402 for an unpaid call), its `error` the reason.
   */
  private async refused(target: Target, error: string, why: string): Promise<CallToolResult> {
    try {
      const answer = await this.client.callCapability(target);
      if (answer.kind === 'payment-required') return paymentRequired({ ...answer.paymentRequired, error }, why);
    } catch (err) {
      return failure(err, why);
    }
    return { isError: true, content: [text(why)] };
  }
}

/**
 * The x402 MCP transport's payment-required result: `structuredContent` the PaymentRequired as
 * agora's 402 gave it, `content[0]` the same as JSON; a refused payment's code and message follow.
 */
function paymentRequired(required: X402Document, why: string | null): CallToolResult {
  return {
    isError: true,
    structuredContent: required,
    content: [text(JSON.stringify(required)), ...(why ? [text(why)] : [])],
  };
}

/** A run: its output (`structuredContent`, and as JSON), the settlement and the execution in `_meta`. */
function executed(answer: Extract<CapabilityCallResult, { kind: 'executed' }>): CallToolResult {
  const { output, ...execution } = answer.execution;
  const _meta = {
    ...(answer.paymentResponse ? { [PAYMENT_RESPONSE_META]: answer.paymentResponse } : {}),
    [EXECUTION_META]: execution,
  };
  if (output !== undefined) return { structuredContent: output, content: [text(JSON.stringify(output))], _meta };
  // No output to give: still running (a retry of a call in flight), or withheld until the payment settles.
  const state = `${execution.status} ${execution.requestId}${execution.message ? `: ${execution.message}` : ''}`;
  return { structuredContent: execution as Record<string, unknown>, content: [text(state)], _meta };
}

/** A payment already used: an error naming the status route for its nonce, not a PaymentRequired. */
function replayed(err: AgoraError, payment: PaymentMeta): CallToolResult {
  const inner =
    payment.kind === 'payload' && typeof payment.payload.payload === 'object' ? payment.payload.payload : null;
  const nonce = (inner as { authorization?: { nonce?: unknown } } | null)?.authorization?.nonce;
  const where =
    typeof nonce === 'string'
      ? ` What it paid for: GET /api/v1/payments/status/${nonce}?payer=<your address> (its request id with your wallet's signature, X-Client-Wallet and X-Client-Signature), or GET /api/v1/execute/{requestId} with the payment.`
      : '';
  return failure(err, `This payment was already used; do not pay again for it.${where}`);
}

/** Anything else agora refused (or a failed run: 502/504, nothing charged): its code, no payment response. */
function failure(err: unknown, before?: string): CallToolResult {
  const said = describeError(err);
  const error =
    err instanceof AgoraError
      ? { code: err.code, message: err.message, details: err.details, requestId: err.requestId }
      : { code: 'INTERNAL_ERROR', message: (err as Error)?.message ?? String(err) };
  return {
    isError: true,
    structuredContent: { error },
    content: [text(before ? `${before}; ${said}` : said)],
  };
}
