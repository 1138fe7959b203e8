import { createPublicKey, verify } from 'node:crypto';
import { AppException } from '@app/common';
import { loadConfig } from '@app/config';
import { ChainTokenPayload, ChainTokens } from './chain-tokens';

const SEED_A = 'aa'.repeat(32);
const SEED_B = 'bb'.repeat(32);
const AGENT = '11111111-2222-4333-8444-555555555555';
const PAYLOAD: Omit<ChainTokenPayload, 'exp'> = {
  cid: '0f0e0d0c-0b0a-4909-8807-060504030201',
  d: 0,
  md: 3,
  rb: '10.000000',
  tb: '10.000000',
  pa: null,
  rw: '0x' + 'ab'.repeat(20),
  sa: '2026-11-24T09:00:00.000Z',
  tid: '0af7651916cd43dd8448eb211c80319c',
  sid: 'b7ad6b7169203331',
  path: [AGENT],
  ptx: 'req_abcdefgh12345678',
};

function tokens(seeds: string[], now: { ms: number }) {
  const config = loadConfig({ NODE_ENV: 'test', CHAIN_TOKEN_SEEDS: seeds.join(','), CHAIN_TOKEN_TTL_S: '30' });
  return new ChainTokens(config, { nowMs: () => now.ms, now: () => new Date(now.ms) } as never);
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof AppException
      ? `${err.code}:${String((err.details as { reason?: string } | undefined)?.reason ?? '')}`
      : `other:${(err as Error).message}`;
  }
  return 'none';
}

describe('ChainTokens', () => {
  const now = { ms: Date.parse('2026-11-24T09:00:00Z') };
  const current = tokens([SEED_A], now);

  it('mints <base64url payload>.<base64url signature> that verifies back to the payload, expiring 30 s later', () => {
    const token = current.mint(PAYLOAD);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(current.verify(token)).toEqual({ ...PAYLOAD, exp: now.ms + 30_000 });
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toMatchObject({
      cid: PAYLOAD.cid,
      path: [AGENT],
      ptx: PAYLOAD.ptx,
    });
  });

  it('refuses a tampered payload, a foreign key, garbage and oversize tokens as CHAIN_TOKEN_INVALID', () => {
    const token = current.mint(PAYLOAD);
    const [body, sig] = token.split('.');
    const richer = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), rb: '999.000000' }),
    ).toString('base64url');
    expect(codeOf(() => current.verify(`${richer}.${sig}`))).toBe('CHAIN_TOKEN_INVALID:signature');
    expect(codeOf(() => current.verify(tokens([SEED_B], now).mint(PAYLOAD)))).toBe('CHAIN_TOKEN_INVALID:signature');
    for (const garbage of [
      '',
      'abc',
      'a.b.c',
      `${body}.`,
      `${body}.${sig}x`,
      `${body}.${sig.slice(0, -4)}`,
      `${body}\u0000.${sig}`,
      'x'.repeat(5000),
    ]) {
      expect(codeOf(() => current.verify(garbage))).toMatch(/^CHAIN_TOKEN_INVALID:/);
    }
    expect(codeOf(() => current.verify(42 as unknown as string))).toBe('CHAIN_TOKEN_INVALID:malformed');
  });

  it('refuses a genuine token whose payload is not a chain token (signed by our key) as malformed', () => {
    const bad = tokens([SEED_A], now).mint({ ...PAYLOAD, path: [] });
    expect(codeOf(() => current.verify(bad))).toBe('CHAIN_TOKEN_INVALID:malformed');
    expect(codeOf(() => current.verify(current.mint({ ...PAYLOAD, tf: 'ff' as never })))).toBe(
      'CHAIN_TOKEN_INVALID:malformed',
    );
  });

  it("carries the root's trace flags (tf '00' or '01'), and still takes a token without them", () => {
    for (const tf of ['00', '01'] as const)
      expect(current.verify(current.mint({ ...PAYLOAD, tf }))).toEqual({ ...PAYLOAD, tf, exp: now.ms + 30_000 });
    expect(current.verify(current.mint(PAYLOAD)).tf).toBeUndefined();
  });

  it("marks the root caller's token (cl, at depth 0 only), expiring when asked; the chain's time limit bounds a held expiry", () => {
    const held = current.mint({ ...PAYLOAD, cl: true }, now.ms + 5_000);
    expect(current.verify(held)).toEqual({ ...PAYLOAD, cl: true, exp: now.ms + 5_000 });
    const deeper = current.mint({
      ...PAYLOAD,
      d: 1,
      path: [...PAYLOAD.path, PAYLOAD.path[0].replace(/^./, 'f')],
      cl: true,
    });
    expect(codeOf(() => current.verify(deeper))).toBe('CHAIN_TOKEN_INVALID:malformed');
    expect(codeOf(() => current.verify(current.mint({ ...PAYLOAD, cl: false as never })))).toBe(
      'CHAIN_TOKEN_INVALID:malformed',
    );
    // CHAIN_TOKEN_TTL_S from now, but never past the chain's start + CHAIN_TIMEOUT_S (300 s).
    expect(current.heldExpiry(new Date(now.ms)).getTime()).toBe(now.ms + 30_000);
    expect(current.heldExpiry(new Date(now.ms - 290_000)).getTime()).toBe(now.ms + 10_000);
  });

  it('answers CHAIN_TOKEN_EXPIRED once its 30 s are over, and checks the signature first', () => {
    const token = current.mint(PAYLOAD);
    const later = { ms: now.ms + 30_000 };
    expect(codeOf(() => tokens([SEED_A], later).verify(token))).toBe('CHAIN_TOKEN_EXPIRED:');
    expect(codeOf(() => tokens([SEED_A], { ms: now.ms + 29_999 }).verify(token))).toBe('none');
    const forgedExpired = tokens([SEED_B], now).mint(PAYLOAD);
    expect(codeOf(() => tokens([SEED_A], later).verify(forgedExpired))).toBe('CHAIN_TOKEN_INVALID:signature');
  });

  it('keeps the previous key valid after a rotation, and publishes both; the JWK verifies with node:crypto alone', () => {
    const old = current.mint(PAYLOAD);
    const rotated = tokens([SEED_B, SEED_A], now);
    expect(rotated.verify(old)).toMatchObject({ cid: PAYLOAD.cid });
    const fresh = rotated.mint(PAYLOAD);
    expect(codeOf(() => current.verify(fresh))).toBe('CHAIN_TOKEN_INVALID:signature');
    const keys = rotated.publicKeys();
    expect(keys.map((k) => k.status)).toEqual(['current', 'previous']);
    expect(keys[1].kid).toBe(current.publicKeys()[0].kid);
    const [body, sig] = fresh.split('.');
    const key = createPublicKey({ key: keys[0].jwk, format: 'jwk' });
    expect(verify(null, Buffer.from(body), key, Buffer.from(sig, 'base64url'))).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(body),
        createPublicKey({ key: keys[1].jwk, format: 'jwk' }),
        Buffer.from(sig, 'base64url'),
      ),
    ).toBe(false);
    expect(Buffer.from(keys[0].publicKey, 'base64').toString('base64url')).toBe(keys[0].jwk.x);
  });

  it('refuses configurations without a usable key', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', CHAIN_TOKEN_SEEDS: 'nothex' })).toThrow(/CHAIN_TOKEN_SEEDS/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', PLATFORM_SIGNING_SEED: SEED_A }),
    ).toThrow(/CHAIN_TOKEN_SEEDS/);
    expect(() => loadConfig({ NODE_ENV: 'test', PLATFORM_SIGNING_SEED: SEED_A, CHAIN_TOKEN_SEEDS: SEED_A })).toThrow(
      /must not reuse/,
    );
  });
});
