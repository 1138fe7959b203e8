import { createHash, createHmac, randomBytes } from 'node:crypto';
import { NONCE_TTL_MS, SignInNonces } from './sign-in-nonce';

const NOW = Date.parse('2026-12-01T10:00:00Z');

describe('SignInNonces', () => {
  const key = randomBytes(32);
  const nonces = new SignInNonces(key);

  it('checks its own nonces until they expire', () => {
    const { nonce, expiresAt } = nonces.issue(NOW);
    expect(nonces.check(nonce, NOW + 1)?.getTime()).toBe(expiresAt.getTime());
    expect(nonces.check(nonce, NOW + NONCE_TTL_MS)).toBeNull();
  });

  it('refuses a nonce made under another key, the chain-token seed derived one included', () => {
    const seed = '00'.repeat(31) + '02'; // the public development chain-token seed
    const old = createHash('sha256').update(`agora-console-sign-in:${seed}`).digest();
    const body = `${(NOW + 60_000).toString(36)}X${randomBytes(8).toString('hex')}`;
    const forged = `${body}${createHmac('sha256', old).update(body).digest('hex').slice(0, 24)}`;
    expect(nonces.check(forged, NOW)).toBeNull();
    expect(new SignInNonces(randomBytes(32)).check(nonces.issue(NOW).nonce, NOW)).toBeNull();
  });

  it('refuses an expiry further away than a nonce is ever handed out for', () => {
    const body = `${(NOW + NONCE_TTL_MS + 1).toString(36)}X${randomBytes(8).toString('hex')}`;
    const far = `${body}${createHmac('sha256', key).update(body).digest('hex').slice(0, 24)}`;
    expect(nonces.check(far, NOW)).toBeNull();
  });

  it('takes no short key', () => {
    expect(() => new SignInNonces(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
