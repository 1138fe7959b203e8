import { createHmac } from 'node:crypto';

const WHSEC = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The key sizes of a Standard Webhooks secret (bytes, decoded). */
export const WHSEC_KEY_BYTES = { min: 24, max: 64 } as const;

/**
 * Why a `whsec_` secret cannot sign (null when it can, or when it is a plain secret): its base64
 * must be canonical (Node would otherwise decode garbage to an empty or partial key without a
 * word) and decode to a Standard Webhooks key size.
 */
export function whsecProblem(secret: string): string | null {
  if (!secret.startsWith(WHSEC)) return null;
  const b64 = secret.slice(WHSEC.length);
  if (b64 === '' || !BASE64.test(b64))
    return 'a whsec_ secret must be whsec_ followed by standard base64 (A-Z, a-z, 0-9, +, /, padded with =)';
  const bytes = Buffer.from(b64, 'base64').length;
  if (bytes < WHSEC_KEY_BYTES.min || bytes > WHSEC_KEY_BYTES.max) {
    return `a whsec_ secret must decode to ${WHSEC_KEY_BYTES.min}-${WHSEC_KEY_BYTES.max} bytes (got ${bytes})`;
  }
  return null;
}

/**
 * The HMAC key of a subscription secret. A Standard Webhooks secret (`whsec_<base64>`) is its
 * decoded bytes, as the `standardwebhooks` library expects; any other secret is its UTF-8 bytes.
 * A `whsec_` secret that does not decode is refused rather than signing with an empty key.
 */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(WHSEC)) return Buffer.from(secret, 'utf8');
  const problem = whsecProblem(secret);
  if (problem !== null) throw new Error(`webhook secret unusable: ${problem}`);
  return Buffer.from(secret.slice(WHSEC.length), 'base64');
}

/** `X-Signature`: HMAC-SHA256 hex of the exact body bytes with the secret (spec §6). */
export function bodySignature(secret: string, body: string): string {
  return createHmac('sha256', secretKey(secret)).update(body).digest('hex');
}

/** `webhook-signature`: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` (Standard Webhooks). */
export function standardSignature(secret: string, id: string, timestampS: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

export interface EventDeliveryHeaders {
  subscriptionId: string;
  eventId: string;
  eventTimestampS: number;
  attemptTimestampS: number;
  secret: string | null;
  body: string;
}

/**
 * Headers of an event delivery: the spec's (X-Webhook-ID = subscription, X-Event-ID, X-Timestamp =
 * the event's Unix seconds, X-Signature when a secret is set) and Standard Webhooks'
 * (webhook-id = the event id, stable across attempts; webhook-timestamp = this attempt;
 * webhook-signature when a secret is set).
 */
export function eventDeliveryHeaders(h: EventDeliveryHeaders): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Webhook-ID': h.subscriptionId,
    'X-Event-ID': h.eventId,
    'X-Timestamp': String(h.eventTimestampS),
    ...(h.secret ? { 'X-Signature': bodySignature(h.secret, h.body) } : {}),
    'webhook-id': h.eventId,
    'webhook-timestamp': String(h.attemptTimestampS),
    ...(h.secret ? { 'webhook-signature': standardSignature(h.secret, h.eventId, h.attemptTimestampS, h.body) } : {}),
  };
}
