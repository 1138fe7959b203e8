import { createPublicKey, verify } from 'node:crypto';
import { ChainTokens } from '@app/chains';
import { ApiHarness, startApi } from '../support/api-harness';

/** Execution chains over HTTP (resolutions §5). */
describe('chains API (e2e)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('publishes the chain token keys: a token the platform minted verifies with the published JWK and node:crypto alone', async () => {
    const res = await api.request('GET', '/api/v1/chains/keys');
    expect(res.status).toBe(200);
    const { keys } = res.body.data;
    expect(keys).toEqual([
      { kid: expect.stringMatching(/^[0-9a-f]{16}$/), alg: 'Ed25519', status: 'current', publicKey: expect.any(String), jwk: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String) } },
    ]);
    const platform = (await api.request('GET', '/api/v1/platform/keys')).body.data.keys[0];
    expect(keys[0].publicKey).not.toBe(platform.publicKey); // a separate key from the one that signs calls to agents
    const token = api.app.get(ChainTokens).mint({
      cid: '0f0e0d0c-0b0a-4909-8807-060504030201',
      d: 0,
      md: 2,
      rb: '1.000000',
      tb: '1.000000',
      pa: null,
      rw: `0x${'cd'.repeat(20)}`,
      sa: new Date().toISOString(),
      tid: '0af7651916cd43dd8448eb211c80319c',
      sid: 'b7ad6b7169203331',
      path: ['11111111-2222-4333-8444-555555555555'],
      ptx: 'req_abcdefgh12345678',
    });
    const [payload, signature] = token.split('.');
    expect(verify(null, Buffer.from(payload), createPublicKey({ key: keys[0].jwk, format: 'jwk' }), Buffer.from(signature, 'base64url'))).toBe(true);
  });
});
