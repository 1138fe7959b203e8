import { createHash, createPrivateKey, createPublicKey, hkdfSync, KeyObject } from 'node:crypto';
import { SigningKey, computeAddress } from 'ethers';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** One receipt signing key pair, derived from one seed: Ed25519 for JWS, secp256k1 for EIP-712. */
export interface ReceiptKey {
  /** The JWS `kid`: `did:web:<host>#receipts-<id>`. */
  kid: string;
  /** 16 hex of the SHA-256 of the Ed25519 public key. */
  id: string;
  /** The first key signs; the others are published so receipts they signed still verify. */
  current: boolean;
  /** Ed25519 public key as a JWK (`kty: OKP`). */
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  /** The EIP-712 signer: the checksummed address of the secp256k1 key. */
  address: string;
  ed25519: KeyObject;
  secp256k1: SigningKey;
}

function derive(seed: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), label, 32));
}

/**
 * `did:web` of the deployment: the public base URL's host (a port is percent-encoded) and path,
 * as the did:web method writes it; its document is served at `/.well-known/did.json`.
 */
export function didWebOf(publicBaseUrl: string): string {
  const url = new URL(publicBaseUrl);
  const path = url.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(url.host), ...path].join(':');
}

/**
 * The receipt keys of a deployment: one pair per seed (RECEIPT_SIGNING_SEEDS, or one derived from
 * PLATFORM_SIGNING_SEED), the first current. Seeds go through HKDF with a label per curve, so no
 * key is reused across purposes.
 */
export function receiptKeysOf(seedsHex: string[], did: string): ReceiptKey[] {
  return seedsHex.map((hex, i) => {
    const seed = Buffer.from(hex, 'hex');
    const ed25519 = createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, derive(seed, 'agora receipts ed25519')]),
      format: 'der',
      type: 'pkcs8',
    });
    const raw = createPublicKey(ed25519).export({ format: 'der', type: 'spki' }).subarray(-32);
    const id = createHash('sha256').update(raw).digest('hex').slice(0, 16);
    const secp256k1 = new SigningKey(`0x${derive(seed, 'agora receipts secp256k1').toString('hex')}`);
    return {
      kid: `${did}#receipts-${id}`,
      id,
      current: i === 0,
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
      address: computeAddress(secp256k1.publicKey),
      ed25519,
      secp256k1,
    };
  });
}

/** The seed a deployment without RECEIPT_SIGNING_SEEDS signs with: derived from its platform signing seed. */
export function defaultReceiptSeed(platformSigningSeed: string): string {
  return derive(Buffer.from(platformSigningSeed, 'hex'), 'agora receipt seed').toString('hex');
}
