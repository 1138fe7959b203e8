/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the response envelope and error codes (spec §7, resolutions §10: "every response, errors and unknown
 * routes included, uses the envelope"), versioning (spec §9).
 */
import { api, Reply } from './support/http';
import { agentBody, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet } from './support/wallets';

let m: Marketplace;
beforeAll(async () => {
  m = await startMarketplace();
}, 120_000);
afterAll(() => m?.stop());

const MIB = 1024 * 1024;

function expectSuccess(r: Reply): void {
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ success: true, data: expect.anything() });
  expect(r.body).not.toHaveProperty('error');
}

function expectError(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(r.body).not.toHaveProperty('data');
  if (r.body.error.details !== undefined) expect(typeof r.body.error.details).toBe('object');
}

describe('Versioning', () => {
  it('serves the endpoints under the prefix /api/v1', async () => {
    expectSuccess(await api(m, 'GET', '/api/v1/payments/stats'));
    expectSuccess(await api(m, 'GET', '/api/v1/discover'));
    expectSuccess(await api(m, 'GET', '/api/v1/reputation/leaderboard'));
  });

  it('has nothing under another version or without the version', async () => {
    expectError(await api(m, 'GET', '/api/v2/payments/stats'), 404, 'NOT_FOUND');
    expectError(await api(m, 'GET', '/api/payments/stats'), 404, 'NOT_FOUND');
  });
});

describe('Errors', () => {
  it('answers success responses as {success: true, data}', async () => {
    const a = await registerAgent(m, newWallet());
    expectSuccess(await api(m, 'GET', `/api/v1/agents/${a.id}`));
    expectSuccess(await api(m, 'GET', `/api/v1/payments/balance/${a.id}`));
    expectSuccess(await api(m, 'GET', `/api/v1/disputes/agent/${a.id}`));
  });

  it('answers an unknown route under /api with 404 NOT_FOUND in the envelope', async () => {
    expectError(await api(m, 'GET', '/api/v1/no-such-route'), 404, 'NOT_FOUND');
    expectError(await api(m, 'POST', '/api/v1/no/such/route', { body: {} }), 404, 'NOT_FOUND');
    expectError(await api(m, 'GET', '/api/nothing-here'), 404, 'NOT_FOUND');
  });

  it('answers an unknown path outside /api, asked for JSON, with 404 NOT_FOUND in the envelope', async () => {
    for (const path of ['/no-such-page', '/v1/agents', '/api-docs-that-do-not-exist/x'])
      expectError(await api(m, 'GET', path, { headers: { Accept: 'application/json' } }), 404, 'NOT_FOUND');
  });

  it('answers a method a route does not have as an unknown route (404 NOT_FOUND)', async () => {
    expectError(await api(m, 'PUT', '/api/v1/payments/stats', { body: {} }), 404, 'NOT_FOUND');
    expectError(await api(m, 'DELETE', '/api/v1/payments/stats'), 404, 'NOT_FOUND');
  });

  it('answers a request body over 1 MiB with PAYLOAD_TOO_LARGE (413) in the envelope', async () => {
    const body = agentBody(newWallet(), { description: 'x'.repeat(MIB) });
    expectError(await api(m, 'POST', '/api/v1/agents', { body }), 413, 'PAYLOAD_TOO_LARGE');
    const padding = { metadata: { pad: 'x'.repeat(MIB + 16) } };
    expectError(await api(m, 'POST', '/api/v1/execute', { body: padding }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('takes a body just under 1 MiB (the limit is the size, not a smaller one)', async () => {
    const body = { ...agentBody(newWallet()), metadata: { pad: 'x'.repeat(MIB - 4096) } };
    const r = await api(m, 'POST', '/api/v1/agents', { body });
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(MIB);
    expect(r.status).not.toBe(413);
    expect(r.body.success).toBe(false);
  });

  it('answers an invalid body with VALIDATION_ERROR (400) and details.errors listing each field', async () => {
    const r = await api(m, 'POST', '/api/v1/execute', { body: { capabilityId: 42, input: 'text' } });
    expectError(r, 400, 'VALIDATION_ERROR');
    const errors = JSON.stringify(r.body.error.details.errors);
    expect(Array.isArray(r.body.error.details.errors)).toBe(true);
    for (const field of ['targetAgentId', 'capabilityId', 'input']) expect(errors).toContain(field);
  });

  it('answers an invalid query with VALIDATION_ERROR (400) naming the parameter', async () => {
    const r = await api(m, 'GET', '/api/v1/discover?limit=1000');
    expectError(r, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(r.body.error.details.errors)).toContain('limit');
  });

  it('answers a body that is not JSON with a 400 in the envelope', async () => {
    const r = await api(m, 'POST', '/api/v1/execute', {
      raw: '{"targetAgentId": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(r, 400, 'VALIDATION_ERROR');
  });
});
