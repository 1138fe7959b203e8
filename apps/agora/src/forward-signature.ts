import { createHmac } from 'node:crypto';

/**
 * The headers of a webhook event delivery, as libs/webhooks signs them (X-Signature: HMAC-SHA256
 * hex of the body; Standard Webhooks' webhook-id/-timestamp/-signature), for `agora listen`: a local
 * server verifies forwarded events exactly as it would deliveries. The CLI reaches agora only
 * through the SDK (dependency rule developer-surfaces-use-only-the-sdk), so this is a copy;
 * test/integration/cli-forward-signature.int-spec.ts holds it byte-for-byte to the webhooks lib's eventDeliveryHeaders.
 */
const WHSEC = 'whsec_';

/** A `whsec_<base64>` secret is its decoded bytes (Standard Webhooks); any other, its UTF-8 bytes. */
function secretKey(secret: string): Buffer {
  return secret.startsWith(WHSEC) ? Buffer.from(secret.slice(WHSEC.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** Why a secret cannot sign as a webhook secret would (null: it can): the webhooks lib's rules. */
export function secretProblem(secret: string): string | null {
  if (secret.length < 24 || secret.length > 256) return 'a secret has 24-256 characters';
  if (!secret.startsWith(WHSEC)) return null;
  const b64 = secret.slice(WHSEC.length);
  const bytes = Buffer.from(b64, 'base64').length;
  if (!/^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64) || bytes < 24 || bytes > 64) {
    return 'a whsec_ secret is whsec_ and the canonical base64 of 24-64 bytes';
  }
  return null;
}

export interface ForwardedEvent {
  subscriptionId: string;
  eventId: string;
  eventTimestampS: number;
  attemptTimestampS: number;
  secret: string | null;
  body: string;
}

export function forwardHeaders(h: ForwardedEvent): Record<string, string> {
  const hmac = () => createHmac('sha256', secretKey(h.secret!));
  return {
    'Content-Type': 'application/json',
    'X-Webhook-ID': h.subscriptionId,
    'X-Event-ID': h.eventId,
    'X-Timestamp': String(h.eventTimestampS),
    ...(h.secret ? { 'X-Signature': hmac().update(h.body).digest('hex') } : {}),
    'webhook-id': h.eventId,
    'webhook-timestamp': String(h.attemptTimestampS),
    ...(h.secret
      ? { 'webhook-signature': `v1,${hmac().update(`${h.eventId}.${h.attemptTimestampS}.${h.body}`).digest('base64')}` }
      : {}),
  };
}
