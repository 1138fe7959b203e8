import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A nonce is good this long after it was handed out. */
export const NONCE_TTL_MS = 600_000;

/**
 * Sign-in nonces that cost nothing to hand out (no row for an unauthenticated request): the
 * expiry (ms, base 36), 16 random hex digits and a 24-hex-digit HMAC of both, alphanumeric as
 * EIP-4361 asks. Single use is recorded when one signs in (`console_used_nonces`). The HMAC key is
 * the nonces' own (`platform_secrets` `console-sign-in`: random, shared by every process), no other
 * key's derivative.
 */
export class SignInNonces {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('a sign-in nonce key has at least 32 bytes');
  }

  issue(nowMs: number): { nonce: string; expiresAt: Date } {
    const exp = nowMs + NONCE_TTL_MS;
    const body = `${exp.toString(36)}X${randomBytes(8).toString('hex')}`;
    return { nonce: `${body}${this.mac(body)}`, expiresAt: new Date(exp) };
  }

  /** The nonce's expiry when it is one of ours and not expired; null otherwise. */
  check(nonce: string, nowMs: number): Date | null {
    const m = /^([0-9a-z]{1,12})X([0-9a-f]{16})([0-9a-f]{24})$/.exec(nonce);
    if (!m) return null;
    const body = `${m[1]}X${m[2]}`;
    const mac = Buffer.from(this.mac(body), 'hex');
    if (!timingSafeEqual(mac, Buffer.from(m[3], 'hex'))) return null;
    const exp = parseInt(m[1], 36);
    // Never one handed out later than now: a nonce made elsewhere with a far expiry would outlive its key.
    return exp > nowMs && exp <= nowMs + NONCE_TTL_MS ? new Date(exp) : null;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('hex').slice(0, 24);
  }
}
