import { Injectable } from '@nestjs/common';
import { KeyObject, sign, verify } from 'node:crypto';
import { AppException, Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ed25519FromSeed } from '@app/outbound';

/**
 * The payload of a chain token (spec "Chain token", resolutions §5): the spec's fields plus
 * `path` (agent ids root..holder, for cycle detection) and `ptx` (the execution the holder runs:
 * the parent of the calls made with the token).
 */
export interface ChainTokenPayload {
  /** Chain id (UUID). */
  cid: string;
  /** Depth of the holder (0 = the root agent). */
  d: number;
  /** Maximum depth of the chain. */
  md: number;
  /** Remaining budget when minted (informative: Postgres holds the budget). */
  rb: string;
  /** Total budget. */
  tb: string;
  /** The holder's parent agent (null for the root agent). */
  pa: string | null;
  /** The root caller's wallet. */
  rw: string;
  /** Chain start (ISO 8601). */
  sa: string;
  /** Expiry, Unix ms. */
  exp: number;
  /** W3C trace id (32 hex) and the holder's span id (16 hex). */
  tid: string;
  sid: string;
  /**
   * W3C trace flags of the chain's trace: '01' the root's span was sampled, '00' it was not (a hop
   * made a child of `sid` follows it). Absent in older tokens: sampled.
   */
  tf?: '00' | '01';
  path: string[];
  ptx: string;
  /**
   * Held by the root's caller (the client that paid), not by an agent: its calls are children of
   * the root node (`ptx`), made after the root ended, while the chain is held open for it.
   */
  cl?: true;
}

export interface ChainKey {
  kid: string;
  alg: 'Ed25519';
  status: 'current' | 'previous';
  /** Raw 32-byte public key, base64. */
  publicKey: string;
  /** The same key as a JWK, for `crypto.createPublicKey({ key: jwk, format: 'jwk' })`. */
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
}

/** Longest token accepted: a 6-agent path is well under 1 KiB. */
const MAX_TOKEN_CHARS = 2048;
const B64URL = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MICROS = /^\d{1,7}\.\d{6}$/;

const invalid = (why: string) =>
  new AppException('CHAIN_TOKEN_INVALID', 'The chain token is not valid', { reason: why });

/**
 * Chain tokens: `<base64url(JSON payload)>.<base64url(Ed25519 signature of the payload part's ASCII)>`.
 * The first CHAIN_TOKEN_SEEDS key signs; every configured key verifies, so a rotated-out key's
 * tokens stay valid for their 30 seconds. Public keys are published at GET /api/v1/chains/keys.
 */
@Injectable()
export class ChainTokens {
  private readonly keys: { kid: string; key: KeyObject; publicKey: KeyObject; raw: Buffer }[];

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.keys = config.chainTokenSeeds.map((seed) => {
      const pair = ed25519FromSeed(seed);
      return { kid: pair.keyId, key: pair.key, publicKey: pair.publicKey, raw: pair.raw };
    });
  }

  /** A token for `payload`: it expires at `exp` (Unix ms), by default CHAIN_TOKEN_TTL_S from now. */
  mint(payload: Omit<ChainTokenPayload, 'exp'>, exp = this.clock.nowMs() + this.config.chainTokenTtlS * 1000): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp })).toString('base64url');
    return `${body}.${sign(null, Buffer.from(body), this.keys[0].key).toString('base64url')}`;
  }

  /**
   * When a token handed to the root's caller now expires: CHAIN_TOKEN_TTL_S from now, and never
   * past the chain's time limit (`startedAt` + CHAIN_TIMEOUT_S), when the chain closes anyway.
   */
  heldExpiry(startedAt: Date): Date {
    const limit = startedAt.getTime() + this.config.chainTimeoutS * 1000;
    return new Date(Math.min(this.clock.nowMs() + this.config.chainTokenTtlS * 1000, limit));
  }

  /** The payload of a genuine, unexpired token; CHAIN_TOKEN_INVALID or CHAIN_TOKEN_EXPIRED otherwise (the signature is checked first). */
  verify(token: string): ChainTokenPayload {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) throw invalid('malformed');
    const parts = token.split('.');
    if (parts.length !== 2 || !B64URL.test(parts[0]) || !B64URL.test(parts[1])) throw invalid('malformed');
    const signature = Buffer.from(parts[1], 'base64url');
    if (signature.length !== 64 || !this.keys.some((k) => verify(null, Buffer.from(parts[0]), k.publicKey, signature)))
      throw invalid('signature');
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    } catch {
      throw invalid('malformed');
    }
    if (!isPayload(payload)) throw invalid('malformed');
    if (payload.exp <= this.clock.nowMs()) {
      throw new AppException(
        'CHAIN_TOKEN_EXPIRED',
        'The chain token has expired; use the childToken of the latest chained response',
        { expiredAt: new Date(payload.exp).toISOString() },
      );
    }
    return payload;
  }

  publicKeys(): ChainKey[] {
    return this.keys.map((k, i) => ({
      kid: k.kid,
      alg: 'Ed25519',
      status: i === 0 ? 'current' : 'previous',
      publicKey: k.raw.toString('base64'),
      jwk: { kty: 'OKP', crv: 'Ed25519', x: k.raw.toString('base64url') },
    }));
  }
}

/** Shape check of a signed payload (ours, so this guards against a key that signed something else). */
function isPayload(p: unknown): p is ChainTokenPayload {
  if (!p || typeof p !== 'object' || Array.isArray(p)) return false;
  const t = p as Record<string, unknown>;
  const depth = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5;
  return (
    typeof t.cid === 'string' &&
    UUID.test(t.cid) &&
    depth(t.d) &&
    depth(t.md) &&
    typeof t.rb === 'string' &&
    MICROS.test(t.rb) &&
    typeof t.tb === 'string' &&
    MICROS.test(t.tb) &&
    (t.pa === null || (typeof t.pa === 'string' && UUID.test(t.pa))) &&
    typeof t.rw === 'string' &&
    /^0x[0-9a-f]{40}$/.test(t.rw) &&
    typeof t.sa === 'string' &&
    !Number.isNaN(Date.parse(t.sa)) &&
    Number.isSafeInteger(t.exp) &&
    typeof t.tid === 'string' &&
    /^[0-9a-f]{32}$/.test(t.tid) &&
    typeof t.sid === 'string' &&
    /^[0-9a-f]{16}$/.test(t.sid) &&
    (t.tf === undefined || t.tf === '00' || t.tf === '01') &&
    Array.isArray(t.path) &&
    t.path.length === (t.d as number) + 1 &&
    t.path.every((a) => typeof a === 'string' && UUID.test(a)) &&
    typeof t.ptx === 'string' &&
    /^req_[A-Za-z0-9_-]{8,40}$/.test(t.ptx) &&
    (t.cl === undefined || (t.cl === true && t.d === 0))
  );
}
