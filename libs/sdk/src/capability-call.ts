import { AgoraError, PaymentError } from './errors';
import type { components } from './generated/openapi';
import { Api, envelopeData, toConnectionError } from './transport';

type Execution = components['schemas']['ExecutionResponse'];

/** A JSON object from an x402 header (`PAYMENT-REQUIRED`, `PAYMENT-RESPONSE`), as the API sent it. */
export type X402Document = Record<string, unknown>;

export interface CapabilityCallOptions {
  agentId: string;
  capabilityId: string;
  /** The capability's input: the request's body. */
  input: Record<string, unknown>;
  /**
   * A payment the caller made itself, sent as it is (nothing is signed or checked here): v2
   * `{ name: 'PAYMENT-SIGNATURE', value }` (see `paymentSignatureHeader`) or v1 `X-PAYMENT`.
   * Without one the API answers the capability's 402.
   */
  payment?: { name: string; value: string };
  /** Sent as `Idempotency-Key` (equal to a payment identifier the payment carries, if any). */
  idempotencyKey?: string;
}

/**
 * What the capability route answered: its 402 (`paymentRequired`, the v2 `PAYMENT-REQUIRED`
 * object, and the refusal as a typed error), or the execution with the `PAYMENT-RESPONSE` header
 * that came with it (decoded and raw; null when there was none).
 */
export type CapabilityCallResult =
  | { kind: 'payment-required'; paymentRequired: X402Document; header: string; error: PaymentError }
  | { kind: 'executed'; execution: Execution; paymentResponse: X402Document | null; header: string | null };

/** The v2 payment header for an x402 `PaymentPayload` object: `PAYMENT-SIGNATURE`, base64 of its JSON. */
export function paymentSignatureHeader(payload: Record<string, unknown>): { name: string; value: string } {
  return { name: 'PAYMENT-SIGNATURE', value: Buffer.from(JSON.stringify(payload), 'utf8').toString('base64') };
}

/** An x402 header's JSON object (base64 of UTF-8 JSON), or null when it is not one. */
export function decodeX402Header(value: string | null): X402Document | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as X402Document) : null;
  } catch {
    return null;
  }
}

/**
 * `POST /api/v1/agents/{agentId}/capabilities/{capabilityId}/execute` with the caller's own
 * payment, for a client that pays itself (an x402 MCP client behind apps/mcp): a 402 with its
 * `PAYMENT-REQUIRED` is an answer, not an error; every other refusal throws the typed error.
 */
export async function callCapability(api: Api, o: CapabilityCallOptions): Promise<CapabilityCallResult> {
  const headers: Record<string, string> = {
    ...(o.payment ? { [o.payment.name]: o.payment.value } : {}),
    ...(o.idempotencyKey !== undefined ? { 'Idempotency-Key': o.idempotencyKey } : {}),
  };
  let answer: { data?: unknown; error?: unknown; response: Response };
  try {
    answer = await api.POST('/api/v1/agents/{agentId}/capabilities/{capabilityId}/execute', {
      params: { path: { agentId: o.agentId, capabilityId: o.capabilityId } },
      body: o.input,
      headers,
    });
  } catch (err) {
    throw toConnectionError(err);
  }
  const { response } = answer;
  const body = answer.data ?? answer.error;
  const required = response.status === 402 ? response.headers.get('payment-required') : null;
  const paymentRequired = decodeX402Header(required);
  if (required !== null && paymentRequired !== null) {
    let error: AgoraError;
    try {
      envelopeData(response, body);
      error = new PaymentError('PAYMENT_REQUIRED', 'Payment required', 402);
    } catch (err) {
      error = err as AgoraError;
    }
    return { kind: 'payment-required', paymentRequired, header: required, error: error as PaymentError };
  }
  const execution = envelopeData(response, body) as Execution;
  const header = response.headers.get('payment-response');
  return { kind: 'executed', execution, paymentResponse: decodeX402Header(header), header };
}
