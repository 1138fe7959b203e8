import { createHash } from 'node:crypto';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';

/** The x402 MCP transport's keys (x402 specs/transports-v2/mcp.md): the payment in, the settlement out. */
export const PAYMENT_META = 'x402/payment';
export const PAYMENT_RESPONSE_META = 'x402/payment-response';
/** What agora adds beside the settlement: the execution (request id, transaction id, cost, settlement state). */
export const EXECUTION_META = 'agora/execution';

/**
 * The largest PaymentPayload taken, as JSON. It travels to agora as a base64 header (4/3 of it),
 * which must fit with the rest in the 16 KiB of headers Node servers read; the reference client's
 * payload echoes the 402's extensions (a Bazaar contract is at most 4 KB, the signed offers about
 * 0.6 KB each), well below it.
 */
export const MAX_PAYMENT_BYTES = 11_264;
const MAX_DEPTH = 32;
/** NUL, and a UTF-16 half without its other half: text no header, log or Postgres column can carry. */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A payment identifier as agora takes it (x402 `payment-identifier`): 16-128 of [A-Za-z0-9_-]. */
const PAYMENT_ID = /^[A-Za-z0-9_-]{16,128}$/;

export type PaymentMeta =
  { kind: 'none' } | { kind: 'payload'; payload: Record<string, unknown> } | { kind: 'invalid'; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first string (key or value) that is unsafe text, with its path; or null. */
function unsafeText(value: unknown, path: string, depth = 0): string | null {
  if (depth > MAX_DEPTH) return `${path} (nested more than ${MAX_DEPTH} levels)`;
  if (typeof value === 'string') return UNSAFE_TEXT.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeText(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
  } else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (UNSAFE_TEXT.test(key)) return `${path} (a key)`;
      const found = unsafeText(v, `${path}.${key}`, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The payment a tool call carries in `params._meta["x402/payment"]`: none, an x402 v2
 * PaymentPayload (checked against @x402/core's schema, passed on as the client sent it), or why
 * it cannot be one (not an object, too large, NUL or broken UTF-16 in its text, not v2, not a
 * PaymentPayload). Whether it pays is agora's to say.
 */
export function readPaymentMeta(meta: Record<string, unknown> | undefined): PaymentMeta {
  if (!meta || !(PAYMENT_META in meta)) return { kind: 'none' };
  const payload = meta[PAYMENT_META];
  if (!isObject(payload)) return { kind: 'invalid', reason: 'must be an x402 PaymentPayload object' };
  const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  if (bytes > MAX_PAYMENT_BYTES)
    return { kind: 'invalid', reason: `is ${bytes} bytes of JSON; at most ${MAX_PAYMENT_BYTES} are taken` };
  const unsafe = unsafeText(payload, 'payment');
  if (unsafe) return { kind: 'invalid', reason: `has a NUL or an unpaired surrogate at ${unsafe}` };
  if (payload.x402Version !== 2)
    return { kind: 'invalid', reason: 'must have x402Version 2 (the MCP transport carries v2 payments)' };
  const parsed = PaymentPayloadV2Schema.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${['payment', ...i.path].join('.')}: ${i.message}`)
      .join('; ');
    return { kind: 'invalid', reason: `is not an x402 v2 PaymentPayload (${issues})` };
  }
  return { kind: 'payload', payload };
}

/**
 * The Idempotency-Key a paid call is sent with: the payment identifier the payload carries (agora
 * takes both, and refuses them unequal), none when that identifier is malformed (agora refuses
 * it), else one derived from the authorization (its payer and nonce): the same payment sent again
 * (a client retrying a call whose result it lost, the SDK resending after a dropped connection)
 * is answered with the first call's result, never charged or run twice.
 */
export function idempotencyKeyFor(payload: Record<string, unknown>): string | undefined {
  const extension = isObject(payload.extensions) ? payload.extensions['payment-identifier'] : undefined;
  const id = isObject(extension) && isObject(extension.info) ? extension.info.id : undefined;
  if (extension !== undefined && id !== undefined)
    return typeof id === 'string' && PAYMENT_ID.test(id) ? id : undefined;
  const inner = isObject(payload.payload) ? payload.payload : {};
  const auth = isObject(inner.authorization) ? inner.authorization : {};
  const seed = `${String(auth.from).toLowerCase()}:${String(auth.nonce).toLowerCase()}`;
  return `mcp_${createHash('sha256').update(seed).digest('base64url')}`;
}
