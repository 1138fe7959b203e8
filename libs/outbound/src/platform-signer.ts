import { Injectable } from '@nestjs/common';
import { createHash, createPrivateKey, createPublicKey, KeyObject, sign } from 'node:crypto';
import { AppConfig } from '@app/config';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key pair from its 32-byte seed (hex): the private key, the raw public key, and its id (16 hex of its sha256). */
export function ed25519FromSeed(seedHex: string): { key: KeyObject; publicKey: KeyObject; raw: Buffer; keyId: string } {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seedHex, 'hex')]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(key);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { key, publicKey, raw, keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16) };
}

/**
 * Signs every call the platform makes to an agent, so agents can check it came from agora:
 * `X-Agora-Signature: t=<unix s>,ed25519=<base64 signature of "<t>.<requestId>.<sha256 hex of body>">`.
 * The public key is published at GET /api/v1/platform/keys.
 */
@Injectable()
export class PlatformSigner {
  private readonly key: KeyObject;
  readonly publicKey: string;
  readonly keyId: string;

  constructor(config: AppConfig) {
    const pair = ed25519FromSeed(config.platformSigningSeed);
    this.key = pair.key;
    this.publicKey = pair.raw.toString('base64');
    this.keyId = pair.keyId;
  }

  signatureHeader(requestId: string, body: string, nowS = Math.floor(Date.now() / 1000)): string {
    const digest = createHash('sha256').update(body).digest('hex');
    const signature = sign(null, Buffer.from(`${nowS}.${requestId}.${digest}`), this.key).toString('base64');
    return `t=${nowS},ed25519=${signature}`;
  }
}
