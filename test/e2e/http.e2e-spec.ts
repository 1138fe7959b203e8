import { AddressInfo, createServer } from 'node:net';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload } from '../support/factories';
import { newWallet } from '../support/wallets';

describe('HTTP surface (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/'],
    ['PUT', '/api/v1/agents'],
    ['POST', '/api/v1/discover'],
    ['GET', '/api/v2/agents'],
  ])('answers unknown route %s %s with 404 in the envelope', async (method, path) => {
    const res = await api.request(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: expect.any(String), requestId: res.headers.get('x-request-id') },
    });
  });

  it.each([
    [
      'malformed JSON (before the router)',
      'POST',
      '/api/v1/agents',
      { raw: '{"name":', headers: { 'content-type': 'application/json' } },
      400,
    ],
    ['a DTO validation error', 'POST', '/api/v1/agents', { body: { name: 1 } }, 400],
    ['an unknown route', 'GET', '/api/v1/nope', {}, 404],
    ['an unknown execution', 'GET', '/api/v1/execute/req_missing_execution_1', {}, 404],
    ['a payment required', 'POST', '/api/v1/agents', { body: agentPayload(newWallet()) }, 402],
  ] as const)(
    'carries the request id in the error body and X-Request-ID: %s',
    async (_what, method, path, opts, status) => {
      const res = await api.request(method, path, opts as { body?: unknown });
      expect(res.status).toBe(status);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.error.requestId).toBe(id);
      const given = await api.request(method, path, {
        ...(opts as object),
        headers: { ...((opts as { headers?: object }).headers ?? {}), 'X-Request-ID': 'caller-id-7' },
      });
      expect(given.headers.get('x-request-id')).toBe('caller-id-7');
      expect(given.body.error.requestId).toBe('caller-id-7');
    },
  );

  it('carries the request id in a rate-limited answer', async () => {
    const limited = await startApi({ RATE_LIMIT_READS_PER_MIN: '1' });
    try {
      await limited.request('GET', '/api/v1/discover');
      const res = await limited.request('GET', '/api/v1/discover', { headers: { 'X-Request-ID': 'limited-id-1' } });
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', requestId: 'limited-id-1' });
    } finally {
      await limited.close();
    }
  });

  it('reports readiness of Postgres and Redis, and the last invariant check (none yet), in the envelope', async () => {
    const res = await api.request('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.details).toEqual({
      database: { status: 'up' },
      redis: { status: 'up' },
      invariants: { status: 'up', checkedAt: null },
    });
  });

  it('serves OpenAPI generated from the DTOs at /api/docs', async () => {
    const ui = await fetch(`${api.baseUrl}/api/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/swagger/i);
    const doc = (await api.request('GET', '/api/docs-json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    const routes = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/v1/agents',
        'GET /api/v1/agents/{id}',
        'PATCH /api/v1/agents/{id}',
        'DELETE /api/v1/agents/{id}',
        'GET /api/v1/discover',
        'GET /api/v1/discover/recommend',
        'POST /api/v1/admin/agents/{id}/suspend',
        'POST /api/v1/admin/agents/{id}/reinstate',
        'GET /api/v1/health',
        'GET /api/v1/health/worker',
        'POST /api/v1/execute',
        'GET /api/v1/execute/{requestId}',
        'POST /api/v1/execute/{requestId}/retry',
        'POST /api/v1/payments/withdraw',
        'POST /api/v1/webhooks',
        'GET /api/v1/webhooks/agent/{agentId}',
        'DELETE /api/v1/webhooks/{id}',
        'GET /api/v1/webhooks/{id}/deliveries',
        'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      ]),
    );
    expect(Object.keys(doc.components.schemas.CreateWebhookDto.properties)).toEqual(
      expect.arrayContaining(['agentId', 'url', 'events', 'secret']),
    );
    expect(Object.keys(doc.components.schemas.WebhookResponse.properties)).not.toContain('secret');
    expect(Object.keys(doc.components.schemas.CostResponse.properties)).toEqual(
      expect.arrayContaining(['maxPrice', 'authorized', 'refunded']),
    );
    const register = doc.components.schemas.RegisterAgentDto;
    expect(register.required).toEqual(expect.arrayContaining(['wallet', 'name', 'capabilities', 'endpoints']));
    expect(Object.keys(doc.components.schemas.UpdateAgentDto.properties)).not.toEqual(
      expect.arrayContaining(['wallet']),
    );
  });

  it('declares the credential headers as security schemes on the routes that take them, for "Try it out"', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    const schemes = Object.fromEntries(
      Object.entries(doc.components.securitySchemes as Record<string, { type: string; in: string; name: string }>).map(
        ([k, v]) => [k, [v.type, v.in, v.name]],
      ),
    );
    expect(schemes).toEqual({
      agentWallet: ['apiKey', 'header', 'X-Agent-Wallet'],
      agentSignature: ['apiKey', 'header', 'X-Agent-Signature'],
      clientWallet: ['apiKey', 'header', 'X-Client-Wallet'],
      clientSignature: ['apiKey', 'header', 'X-Client-Signature'],
      adminKey: ['apiKey', 'header', 'X-Admin-Key'],
      x402Payment: ['apiKey', 'header', 'X-PAYMENT'],
      x402PaymentSignature: ['apiKey', 'header', 'PAYMENT-SIGNATURE'],
      consoleSession: ['apiKey', 'cookie', 'agora_session'],
    });
    const security = (path: string, method: string) => doc.paths[path][method].security;
    const paid = [{ x402Payment: [] }, { x402PaymentSignature: [] }];
    expect(security('/api/v1/agents/{id}', 'patch')).toEqual([{ agentWallet: [], agentSignature: [] }]);
    expect(security('/api/v1/payments/withdraw', 'post')).toEqual([{ agentWallet: [], agentSignature: [] }]);
    expect(security('/api/v1/admin/disputes/{id}/resolve', 'post')).toEqual([{ adminKey: [] }]);
    expect(security('/api/v1/agents', 'post')).toEqual(paid);
    expect(security('/api/v1/execute', 'post')).toEqual([...paid, {}]);
    // The contract's retry takes no request data; the original payment header is optional (it shows the output).
    expect(security('/api/v1/execute/{requestId}/retry', 'post')).toEqual([...paid, {}]);
    expect(security('/api/v1/disputes', 'post')).toEqual([...paid, { clientWallet: [], clientSignature: [] }]);
    expect(security('/api/v1/discover', 'get')).toBeUndefined();
    // A read the agent's console session also opens: either credential.
    expect(security('/api/v1/payments/history/{agentId}', 'get')).toEqual([
      { consoleSession: [] },
      { agentWallet: [], agentSignature: [] },
    ]);
    // A credential is a scheme, not also a parameter (Swagger UI would ask for it twice).
    const params = (doc.paths['/api/v1/agents/{id}'].patch.parameters as { name: string }[]).map((p) => p.name);
    expect(params).not.toContain('X-Agent-Wallet');
  });

  it('answers 503 in the envelope when Redis is unreachable', async () => {
    // Not Redis: a port-0 listener that hangs up on every connection, held for the whole test so no
    // other server can take the port meanwhile.
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', () => resolve()));
    const port = (hangUp.address() as AddressInfo).port;
    const broken = await startApi({ REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const res = await broken.request('GET', '/api/v1/health');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body.error.details.health.error.redis.status).toBe('down');
    } finally {
      await broken.close();
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });
});
