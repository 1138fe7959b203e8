import { Injectable } from '@nestjs/common';
import { createHash, createPrivateKey, createPublicKey, KeyObject, sign } from 'node:crypto';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key pair from its 32-byte seed (hex): the private key, the raw public key, and its id (16 hex of its sha256). */
export function ed25519FromSeed(seedHex: string): { key: KeyObject; publicKey: KeyObject; raw: Buffer; keyId: string } {
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seedHex, 'hex')]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(key);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { key, publicKey, raw, keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16) };
}

/**
 * What a platform signature is for. Each purpose has its own label at the start of the signed text,
 * so a signature made for one (a public dispute attestation, a callback sent to a client's URL) is
 * never accepted as another (a call to an agent).
 */
export const PLATFORM_SIGNATURE_LABELS = {
  /** A call to an agent; subject: the agent id, the request id. */
  call: 'agora-call.v2',
  /** An execution's callback to the client's callbackUrl; subject: the request id. */
  callback: 'agora-callback.v2',
  /** A dispute's platform attestation of the execution facts; subject: the transaction id. */
  attestation: 'agora-attestation.v2',
} as const;

export type PlatformSignaturePurpose = keyof typeof PLATFORM_SIGNATURE_LABELS;

/** The text the platform signs: `"<label>.<t>.<subject ids, '.'-separated>.<sha256 hex of body>"`. */
export function platformSignedText(
  purpose: PlatformSignaturePurpose,
  t: number,
  subject: readonly string[],
  body: string | Buffer,
): string {
  for (const id of subject)
    if (!id || id.includes('.'))
      throw new Error(`a signed subject id must be non-empty and dot-free: ${JSON.stringify(id)}`);
  return [
    PLATFORM_SIGNATURE_LABELS[purpose],
    String(t),
    ...subject,
    createHash('sha256').update(body).digest('hex'),
  ].join('.');
}

/**
 * The platform's Ed25519 signatures: `X-Agora-Signature: t=<unix s>,ed25519=<base64 signature of
 * platformSignedText(...)>` on calls to agents and on callbacks, and a dispute's attestation. A call
 * names the agent it is for (in the signed text and in the body), so it cannot be relayed to another.
 * The public key is published at GET /api/v1/platform/keys.
 */
@Injectable()
export class PlatformSigner {
  private readonly key: KeyObject;
  readonly publicKey: string;
  readonly keyId: string;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    const pair = ed25519FromSeed(config.platformSigningSeed);
    this.key = pair.key;
    this.publicKey = pair.raw.toString('base64');
    this.keyId = pair.keyId;
  }

  /** X-Agora-Signature of a call to agent `agentId`; the body carries the same `agentId`. */
  callSignature(agentId: string, requestId: string, body: string, nowS = this.nowSeconds()): string {
    return this.header('call', [agentId, requestId], body, nowS);
  }

  /** X-Agora-Signature of an execution's callback. */
  callbackSignature(requestId: string, body: string, nowS = this.nowSeconds()): string {
    return this.header('callback', [requestId], body, nowS);
  }

  /** A dispute's attestation: `body` is the canonical JSON of the facts of transaction `transactionId`. */
  attestationSignature(transactionId: string, body: string, nowS = this.nowSeconds()): string {
    return this.header('attestation', [transactionId], body, nowS);
  }

  private header(purpose: PlatformSignaturePurpose, subject: readonly string[], body: string, nowS: number): string {
    const signature = sign(null, Buffer.from(platformSignedText(purpose, nowS, subject, body)), this.key).toString(
      'base64',
    );
    return `t=${nowS},ed25519=${signature}`;
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.nowMs() / 1000);
  }
}
