import { createHmac } from 'node:crypto';

/**
 * The HMAC key of a subscription secret. A Standard Webhooks secret (`whsec_<base64>`) is its
 * decoded bytes, as the `standardwebhooks` library expects; any other secret is its UTF-8 bytes.
 */
export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
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
