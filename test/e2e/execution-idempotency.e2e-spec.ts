import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { MAX_WAITERS, RunPendingExecution } from '@app/execution';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

describe('Execution API (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', EXECUTION_TIMEOUT_MS: '500' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string' }, mode: { type: 'string' } },
            required: ['text'],
          },
          outputSchema: { type: 'object', properties: { translation: { type: 'string' } }, required: ['translation'] },
        }),
      ],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });
  beforeEach(() => {
    agentServer.defaultMode = 'ok';
  });

  const body = (input: Record<string, unknown> = { text: 'bonjour' }, extra: Record<string, unknown> = {}) => ({
    targetAgentId: agentId,
    capabilityId: 'translate',
    input,
    ...extra,
  });
  const paid = async (client: Wallet, o: { amount?: bigint } = {}) => {
    const h = await x402Header(client, { amount: o.amount ?? PRICE, payTo: api.config.platformWallet });
    return { [h.name]: h.value };
  };
  const execute = (b: unknown, headers: Record<string, string> = {}, query = '') =>
    api.request('POST', `/api/v1/execute${query}`, { body: b, headers });
  const counts = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM payments WHERE purpose = 'execution')::int AS payments, (SELECT count(*) FROM transactions)::int AS charges,
                (SELECT count(*) FROM executions)::int AS executions`,
      )
    )[0] as { payments: number; charges: number; executions: number };
  const agentCalls = (text: string) => agentServer.calls.filter((c) => c.json.input.text === text).length;
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  describe('idempotency', () => {
    it('replays the result for the same key and input, even with a fresh payment, and never charges twice', async () => {
      const client = newWallet();
      const first = await execute(body({ text: 'once' }, { idempotencyKey: 'order-1' }), await paid(client));
      expect(first.status).toBe(200);
      const before = await counts();
      const again = await execute(body({ text: 'once' }, { idempotencyKey: 'order-1' }), await paid(client));
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({
        requestId: first.body.data.requestId,
        output: { translation: 'ONCE' },
        transactionId: first.body.data.transactionId,
      });
      expect(await counts()).toEqual(before);
      const conflict = await execute(body({ text: 'other input' }, { idempotencyKey: 'order-1' }), await paid(client));
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
      // Keys belong to the payer: another wallet may use the same key.
      expect(
        (await execute(body({ text: 'other input' }, { idempotencyKey: 'order-1' }), await paid(newWallet()))).status,
      ).toBe(200);
    });

    it('takes the key from the Idempotency-Key header as from the body: one charge; both and different is 400, charging nothing', async () => {
      const client = newWallet();
      const first = await execute(body({ text: 'by header' }), { ...(await paid(client)), 'Idempotency-Key': 'hdr-1' });
      expect(first.status).toBe(200);
      const before = await counts();
      // The same key again, as a header and then in the body: the first run's answer, no new charge.
      const again = await execute(body({ text: 'by header' }), { ...(await paid(client)), 'Idempotency-Key': 'hdr-1' });
      const inBody = await execute(body({ text: 'by header' }, { idempotencyKey: 'hdr-1' }), await paid(client));
      for (const r of [again, inBody])
        expect(r.body.data).toMatchObject({
          requestId: first.body.data.requestId,
          transactionId: first.body.data.transactionId,
        });
      const conflict = await execute(body({ text: 'other' }), { ...(await paid(client)), 'Idempotency-Key': 'hdr-1' });
      expect([conflict.status, conflict.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
      const both = await execute(body({ text: 'both' }, { idempotencyKey: 'hdr-2' }), {
        ...(await paid(client)),
        'Idempotency-Key': 'hdr-3',
      });
      expect([both.status, both.body.error.code, both.body.error.details.errors[0].field]).toEqual([
        400,
        'VALIDATION_ERROR',
        'idempotencyKey',
      ]);
      const long = await execute(body({ text: 'long' }), {
        ...(await paid(client)),
        'Idempotency-Key': 'k'.repeat(256),
      });
      expect([long.status, long.body.error.details.errors[0].field]).toEqual([400, 'Idempotency-Key']);
      const equal = await execute(body({ text: 'by header' }, { idempotencyKey: 'hdr-1' }), {
        ...(await paid(client)),
        'Idempotency-Key': 'hdr-1',
      });
      expect(equal.body.data.requestId).toBe(first.body.data.requestId);
      expect(await counts()).toEqual(before);
    });

    // One runs and MAX_WAITERS wait for it: as many as may wait (one more may be told 409 at once, when
    // all arrive while the first runs: execution-idempotency-inflight tests that).
    it(`charges once for ${1 + MAX_WAITERS} concurrent duplicates carrying different payments`, async () => {
      const client = newWallet();
      const before = await counts();
      const results = await Promise.all(
        Array.from({ length: 1 + MAX_WAITERS }, async () =>
          execute(body({ text: 'race' }, { idempotencyKey: 'race-1' }), await paid(client)),
        ),
      );
      const ids = new Set(results.map((r) => r.body.data?.requestId));
      // Each duplicate waited for the one that ran, and answers its result.
      expect(results.map((r) => r.status)).toEqual(Array(1 + MAX_WAITERS).fill(200));
      expect(ids.size).toBe(1);
      expect(agentCalls('race')).toBe(1);
      const after = await counts();
      expect(after.charges - before.charges).toBe(1);
      expect(after.executions - before.executions).toBe(1);
      expect(await invariants()).toEqual([]);
    });
  });

  it('accepts async=true with 202 {jobId, requestId, status, absolute statusUrl} and a Location header; the run completes it', async () => {
    const headers = await paid(newWallet());
    const res = await execute(body({ text: 'later' }), headers, '?async=true');
    expect(res.status).toBe(202);
    const id = res.body.data.jobId as string;
    const statusUrl = `${api.config.publicBaseUrl}/api/v1/execute/${id}`;
    expect(statusUrl).toMatch(/^https?:\/\/[^/]+\/api\/v1\/execute\/req_/);
    expect(res.body.data).toEqual({
      jobId: expect.stringMatching(/^req_/),
      requestId: id,
      status: 'pending',
      statusUrl,
      livemode: false,
    });
    expect(res.headers.get('location')).toBe(statusUrl);
    expect((await api.request('GET', res.body.data.statusUrl, { headers })).body.data.status).toBe('pending');
    await api.app.get(RunPendingExecution).execute(res.body.data.jobId); // what the worker's execution.run job does
    const done = await api.request('GET', res.body.data.statusUrl, { headers });
    expect(done.body.data).toMatchObject({
      status: 'completed',
      output: { translation: 'LATER' },
      settlement: { status: 'settled' },
    });
  });

  it('sees a change to the agent or its capability at once, whoever made it: the remembered target is confirmed by its version', async () => {
    const registered = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    const id = registered.body.data.id as string;
    const target = { targetAgentId: id, capabilityId: 'translate', input: { text: 'hi' } };
    const client = newWallet();
    const send = async (amount = PRICE) => {
      const h = await x402Header(client, { amount, payTo: api.config.platformWallet });
      return execute(target, { [h.name]: h.value });
    };
    const version = async () =>
      (await ds.query(`SELECT config_version AS v FROM agents WHERE id = $1`, [id]))[0].v as string;
    expect((await send()).status).toBe(200);
    const v0 = await version();
    // A charge counts the execution on the agent's row; that is not a change of what executing reads.
    expect((await send()).status).toBe(200);
    expect(await version()).toBe(v0);
    // Changed from outside the api (no code of this process involved): the next request sees it.
    await ds.query(`UPDATE agent_capabilities SET base_price = 20000 WHERE agent_id = $1`, [id]);
    expect(await version()).not.toBe(v0);
    const stale = await send();
    expect(stale.status).toBe(402);
    expect(stale.body.accepts[0].maxAmountRequired).toBe('21000');
    expect((await send(21_000n)).status).toBe(200);
    await ds.query(`UPDATE agents SET status = 'suspended' WHERE id = $1`, [id]);
    expect((await send(21_000n)).body.error.code).toBe('AGENT_NOT_FOUND');
    await ds.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [id]);
    expect((await send(21_000n)).status).toBe(200);
    await ds.query(`UPDATE agents SET endpoints = $2 WHERE id = $1`, [id, { execution: 'http://127.0.0.1:9/gone' }]);
    expect((await send(21_000n)).status).toBe(502);
    await ds.query(`DELETE FROM agent_capabilities WHERE agent_id = $1`, [id]);
    expect((await send(21_000n)).body.error.code).toBe('CAPABILITY_NOT_FOUND');
  });

  it('limits executions per client with 429 RATE_LIMITED and Retry-After', async () => {
    const limited = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '2',
    });
    try {
      const res = await registerAgent(limited, newWallet(), { endpoints: { execution: agentServer.url } });
      const target = { targetAgentId: res.body.data.id, capabilityId: 'translate', input: { text: 'hi' } };
      const client = newWallet();
      const send = async () => {
        const h = await x402Header(client, { amount: PRICE, payTo: limited.config.platformWallet });
        return limited.request('POST', '/api/v1/execute', { body: target, headers: { [h.name]: h.value } });
      };
      const first = await send();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-client-remaining')).toBe('1');
      expect((await send()).headers.get('x-ratelimit-client-remaining')).toBe('0');
      const third = await send();
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMITED');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(third.headers.get('x-ratelimit-client-remaining')).toBe('0');
    } finally {
      await limited.close();
    }
  });
});
