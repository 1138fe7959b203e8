import { randomBytes } from 'node:crypto';
import { AddressInfo, createServer } from 'node:net';
import { TEST_REDIS_URL } from '../setup/test-env';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload } from '../support/factories';
import { x402Header } from '../support/x402';
import { onFreePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { createTestDatabase, withClient } from '../support/test-db';
import { newWallet, walletHeaders } from '../support/wallets';

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
    });
    const security = (path: string, method: string) => doc.paths[path][method].security;
    const paid = [{ x402Payment: [] }, { x402PaymentSignature: [] }];
    expect(security('/api/v1/agents/{id}', 'patch')).toEqual([{ agentWallet: [], agentSignature: [] }]);
    expect(security('/api/v1/payments/withdraw', 'post')).toEqual([{ agentWallet: [], agentSignature: [] }]);
    expect(security('/api/v1/admin/disputes/{id}/resolve', 'post')).toEqual([{ adminKey: [] }]);
    expect(security('/api/v1/agents', 'post')).toEqual(paid);
    expect(security('/api/v1/execute', 'post')).toEqual([...paid, {}]);
    expect(security('/api/v1/execute/{requestId}/retry', 'post')).toEqual(paid);
    expect(security('/api/v1/disputes', 'post')).toEqual([...paid, { clientWallet: [], clientSignature: [] }]);
    expect(security('/api/v1/discover', 'get')).toBeUndefined();
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

describe('api process: logs and internal errors (e2e)', () => {
  let proc: RunningProcess;
  let baseUrl: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    // The process binds the port it is told: one of this jest worker's (test/support/ports.ts), the
    // next one if it fails to bind. Its own log line says the port is its and not another server's.
    proc = await onFreePort(async (port) => {
      const started = startProcess(builtApp('api'), {
        NODE_ENV: 'test',
        PORT: String(port),
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: `tp${randomBytes(4).toString('hex')}`,
        LOG_LEVEL: 'info',
      });
      try {
        await waitFor(async () => {
          if (started.child.exitCode !== null)
            throw new Error(`api exited with code ${started.child.exitCode} on port ${port}:\n${started.output()}`);
          return started.output().includes(`agora api listening on ${port}`);
        }, `api process on port ${port}`);
      } catch (err) {
        started.child.kill('SIGKILL');
        await started.exited;
        throw err;
      }
      baseUrl = `http://127.0.0.1:${port}`;
      return started;
    });
    await waitFor(async () => (await fetch(`${baseUrl}/api/v1/health`).catch(() => null))?.ok, 'api process');
  });
  afterAll(async () => {
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    await db.drop();
  });

  const logLines = () =>
    proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);

  it('logs each request as JSON with its request id and redacts credentials', async () => {
    const wallet = newWallet();
    const pay = await x402Header(wallet, { amount: 100_000n, payTo: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' });
    const created = await fetch(`${baseUrl}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [pay.name]: pay.value },
      body: JSON.stringify(agentPayload(wallet)),
    });
    const { data } = (await created.json()) as { data: { id: string } };
    const headers = await walletHeaders(wallet, data.id, `PATCH /api/v1/agents/${data.id}`);
    const res = await fetch(`${baseUrl}/api/v1/agents/${data.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'X-Request-ID': 'trace-e2e-42', ...headers },
      body: JSON.stringify({ name: 'Logged Agent' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-e2e-42');
    const line = await waitFor(
      async () => logLines().find((l) => l.requestId === 'trace-e2e-42' && l.res),
      'request log line',
    );
    expect(line).toMatchObject({ requestId: 'trace-e2e-42', req: { method: 'PATCH' }, res: { statusCode: 200 } });
    expect(line.req.headers['x-agent-signature']).toBe('[redacted]');
    expect(proc.output()).not.toContain(headers['X-Agent-Signature'].split(':sig:')[1]);
  });

  it('redacts chain tokens, client signatures and cookies in the request log (issue 29)', async () => {
    const secrets = {
      'X-Chain-Token': 'v1.chain-token-secret-7f3a9c',
      'X-Client-Signature': 'client-sig-secret-b41d0e',
      cookie: 'session=cookie-secret-5e2a',
    };
    const res = await fetch(`${baseUrl}/api/v1/execute/exec_nothing_here`, {
      headers: { 'X-Request-ID': 'trace-e2e-redact', 'X-Client-Wallet': '0x' + '11'.repeat(20), ...secrets },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const line = await waitFor(
      async () => logLines().find((l) => l.requestId === 'trace-e2e-redact' && l.res),
      'request log line',
    );
    expect(line.req.headers).toMatchObject({
      'x-chain-token': '[redacted]',
      'x-client-signature': '[redacted]',
      cookie: '[redacted]',
    });
    for (const value of Object.values(secrets)) expect(proc.output()).not.toContain(value);
  });

  it('answers a real internal failure with INTERNAL_ERROR and an error id only, and logs the cause', async () => {
    await withClient(db.url, (c) => c.query('ALTER TABLE agent_capabilities RENAME TO agent_capabilities_gone'));
    try {
      const res = await fetch(`${baseUrl}/api/v1/discover`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as {
        success: boolean;
        error: { code: string; message: string; details: { errorId: string } };
      };
      expect(body).toEqual({
        success: false,
        error: {
          code: 'INTERNAL_ERROR',
          message: 'Internal server error',
          details: { errorId: expect.any(String) },
          requestId: res.headers.get('x-request-id'),
        },
      });
      expect(JSON.stringify(body)).not.toMatch(/agent_capabilities|relation|SELECT|postgres/i);
      const logged = await waitFor(
        async () => logLines().find((l) => l.errorId === body.error.details.errorId),
        'error log line',
      );
      expect(JSON.stringify(logged)).toMatch(/agent_capabilities/);
    } finally {
      await withClient(db.url, (c) => c.query('ALTER TABLE agent_capabilities_gone RENAME TO agent_capabilities'));
    }
  });
});
