import { randomBytes } from 'node:crypto';
import { TEST_REDIS_URL } from '../setup/test-env';
import { agentPayload } from '../support/factories';
import { x402Header } from '../support/x402';
import { onFreePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { createTestDatabase, withClient } from '../support/test-db';
import { newWallet, walletHeaders } from '../support/wallets';

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
