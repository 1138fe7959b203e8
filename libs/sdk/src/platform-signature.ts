import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEADER = /^t=(\d{1,12}),ed25519=([A-Za-z0-9+/=]{1,200})$/;

/**
 * What a platform signature is for, and the label its signed text starts with. A signature made for
 * one purpose never verifies as another: a dispute attestation or a callback is not a call.
 */
export const AGORA_SIGNATURE_LABELS = {
  /** A call to an agent: subject [agentId, requestId]. */
  call: 'agora-call.v2',
  /** An execution's callback to the client's callbackUrl: subject [requestId]. */
  callback: 'agora-callback.v2',
  /** A dispute's platform attestation of the execution facts: subject [transactionId]. */
  attestation: 'agora-attestation.v2',
} as const;

export type AgoraSignaturePurpose = keyof typeof AGORA_SIGNATURE_LABELS;

/** An Ed25519 public key from GET /api/v1/platform/keys (raw 32 bytes, base64). */
export function platformPublicKey(publicKeyBase64: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyBase64, 'base64')]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * The text the platform signs: `"<label>.<t>.<subject ids, '.'-separated>.<sha256 hex of body>"`,
 * e.g. `agora-call.v2.<t>.<agentId>.<requestId>.<sha256 hex of body>`. Null when a subject id is
 * empty or holds a dot (the text would be ambiguous).
 */
export function agoraSignedText(
  purpose: AgoraSignaturePurpose,
  t: string | number,
  subject: readonly string[],
  body: string | Buffer,
): string | null {
  if (subject.some((id) => typeof id !== 'string' || !id || id.includes('.'))) return null;
  return [AGORA_SIGNATURE_LABELS[purpose], String(t), ...subject, createHash('sha256').update(body).digest('hex')].join(
    '.',
  );
}

/**
 * Whether `header` (`t=<unix s>,ed25519=<base64>`) is the platform's signature, with one of `keys`,
 * of `body` for `purpose` and `subject` (see AGORA_SIGNATURE_LABELS), made within `maxSkewS` of now.
 * A call: `verifyAgoraSignature(h, 'call', [myAgentId, requestId], rawBody, keys)`. A dispute's
 * attestation, checked any time later: `verifyAgoraSignature(a.signature, 'attestation',
 * [facts.transactionId], canonicalJson(facts), keys, Infinity)`.
 */
export function verifyAgoraSignature(
  header: string | undefined,
  purpose: AgoraSignaturePurpose,
  subject: readonly string[],
  body: string | Buffer,
  keys: (KeyObject | string)[],
  maxSkewS = 300,
): boolean {
  const m = HEADER.exec(header ?? '');
  if (!m || !Object.hasOwn(AGORA_SIGNATURE_LABELS, purpose)) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > maxSkewS) return false;
  const text = agoraSignedText(purpose, m[1], subject, body);
  if (text === null) return false;
  const signature = Buffer.from(m[2], 'base64');
  return keys.some((k) => verify(null, Buffer.from(text), typeof k === 'string' ? platformPublicKey(k) : k, signature));
}

/** Whether `header` has the shape of X-Agora-Signature. */
export function isAgoraSignatureHeader(header: string | undefined): header is string {
  return HEADER.test(header ?? '');
}
