import { createHash, createPublicKey, verify } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { createSigner } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import Redis from 'ioredis';
import { ExecutionsRepository, RunPendingExecution } from '@app/execution';
import { REDIS } from '@app/queues';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee

async function waitUntil(probe: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

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
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('asks for payment with the exact price (platform fee + agent fee) and rate-limit headers', async () => {
    const res = await execute(body());
    expect(res.status).toBe(402);
    expect(res.body.accepts[0]).toMatchObject({
      maxAmountRequired: '11000',
      resource: `${api.config.publicBaseUrl}/api/v1/execute`,
    });
    expect(res.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
  });

  it.each([
    [
      'an unknown agent',
      () => ({ ...body(), targetAgentId: '0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b' }),
      404,
      'AGENT_NOT_FOUND',
    ],
    ['an unknown capability', () => ({ ...body(), capabilityId: 'nope' }), 404, 'CAPABILITY_NOT_FOUND'],
    ['input that breaks the inputSchema', () => body({ text: 5 }), 422, 'INPUT_SCHEMA_MISMATCH'],
    ['input missing a required field', () => body({ mode: 'ok' }), 422, 'INPUT_SCHEMA_MISMATCH'],
    ['a missing input', () => ({ targetAgentId: agentId, capabilityId: 'translate' }), 400, 'VALIDATION_ERROR'],
    [
      'a callbackUrl that is not http(s)',
      () => body(undefined, { callbackUrl: 'ftp://hooks.example.com/x' }),
      400,
      'VALIDATION_ERROR',
    ],
  ])('validates %s before payment and charges nothing', async (_label, make, status, code) => {
    const before = await counts();
    const headers = await paid(newWallet());
    const res = await execute(make(), headers);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await counts()).toEqual(before);
    // Every execute answer carries the limit headers, validation errors included.
    expect(res.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
    // The nonce claim taken with the rate-limit count was given back: the same header pays for a valid request.
    const ok = await execute(body(), headers);
    expect(ok.status).toBe(200);
    expect(await counts()).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });

  it("counts a payment whose signature is not the payer's against the caller's IP, not the wallet it names, and charges nothing", async () => {
    const client = newWallet();
    const forged = await x402Header(newWallet(), {
      amount: PRICE,
      payTo: api.config.platformWallet,
      from: client.address,
    });
    const before = await counts();
    const res = await execute(body(), { [forged.name]: forged.value });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'PAYMENT_INVALID',
      details: { reason: 'invalid_exact_evm_payload_signature' },
    });
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
    expect(await counts()).toEqual(before);
    // The named wallet's own window is untouched: its first real execute still has the full allowance - 1.
    const ok = await execute(body(), await paid(client));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-client-remaining')).toBe(String(api.config.rateLimitClientPerMin - 1));
  });

  it('runs, settles and returns the output to a payer using x402-fetch unchanged', async () => {
    const client = newWallet();
    const signer = await createSigner('base-sepolia', client.privateKey as `0x${string}`);
    const res = await wrapFetchV1(fetch, signer)(`${api.baseUrl}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body({ text: 'bonjour' })),
    });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { data: any }).data;
    expect(data).toEqual({
      requestId: expect.stringMatching(/^req_/),
      status: 'completed',
      output: { translation: 'BONJOUR' },
      executionTime: expect.any(Number),
      cost: { agentFee: '0.010000', platformFee: '0.001000', total: '0.011000', pricingModel: 'per-request' },
      usage: { tokens: 7 },
      settlement: { status: 'settled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), livemode: false },
      transactionId: expect.stringMatching(/^tx_/),
      livemode: false,
    });
    expect(decodeXPaymentResponse(res.headers.get('x-payment-response')!).success).toBe(true);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);

    // The agent got a platform-signed request, for it, that it can verify with the published key.
    const call = agentServer.calls.find((c) => c.json.requestId === data.requestId)!;
    expect(call.json).toEqual({
      agentId,
      requestId: data.requestId,
      capabilityId: 'translate',
      input: { text: 'bonjour' },
    });
    expect(call.headers['x-request-id']).toBe(data.requestId);
    const [, t, sig] = /^t=(\d+),ed25519=(.+)$/.exec(String(call.headers['x-agora-signature']))!;
    const { keys } = (await api.request('GET', '/api/v1/platform/keys')).body.data;
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(keys[0].publicKey, 'base64')]),
      format: 'der',
      type: 'spki',
    });
    const message = `agora-call.v2.${t}.${agentId}.${data.requestId}.${createHash('sha256').update(call.body).digest('hex')}`;
    expect(verify(null, Buffer.from(message), publicKey, Buffer.from(sig, 'base64'))).toBe(true);

    const tx = (await api.request('GET', `/api/v1/payments/tx/${data.transactionId}`)).body.data;
    expect(tx).toMatchObject({
      amount: '0.010000',
      platformCut: '0.000500',
      agent_earnings: '0.009500',
      gross_amount: '0.011000',
    });
    const [event] = await ds.query(
      `SELECT data FROM outbox_events WHERE type = 'execution.completed' AND data->>'requestId' = $1`,
      [data.requestId],
    );
    expect(event.data).toEqual({
      requestId: data.requestId,
      agentId,
      capabilityId: 'translate',
      executionTime: data.executionTime,
      earnings: '0.009500',
    });
    expect(await invariants()).toEqual([]);
  });

  it('gives the output on GET only with the original payment header', async () => {
    const headers = await paid(newWallet());
    const { body: first } = await execute(body({ text: 'hola' }), headers);
    const id = first.data.requestId;
    const withHeader = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(withHeader.body.data).toMatchObject({
      requestId: id,
      status: 'completed',
      output: { translation: 'HOLA' },
      settlement: { status: 'settled' },
    });
    const without = await api.request('GET', `/api/v1/execute/${id}`);
    expect(without.body.data.output).toBeUndefined();
    expect(without.body.data.message).toMatch(/payment header/);
    const other = await api.request('GET', `/api/v1/execute/${id}`, { headers: await paid(newWallet()) });
    expect(other.body.data.output).toBeUndefined();
    expect((await api.request('GET', '/api/v1/execute/req_doesnotexist00')).body.error.code).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect((await api.request('GET', '/api/v1/execute/bad')).status).toBe(400);
  });

  it('charges nothing when the agent fails, and a retry with the stored authorization succeeds once', async () => {
    const headers = await paid(newWallet());
    const before = await counts();
    agentServer.defaultMode = 'fail';
    const failed = await execute(body({ text: 'ciao' }), headers);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      details: { requestId: expect.stringMatching(/^req_/), agentError: expect.stringMatching(/500/) },
    });
    expect(failed.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
    const id = failed.body.error.details.requestId;
    expect((await api.request('GET', `/api/v1/execute/${id}`)).body.data.status).toBe('failed');
    expect((await counts()).charges).toBe(before.charges);
    const [failedEvent] = await ds.query(
      `SELECT data FROM outbox_events WHERE type = 'execution.failed' AND data->>'requestId' = $1`,
      [id],
    );
    expect(failedEvent.data).toMatchObject({
      requestId: id,
      agentId,
      capabilityId: 'translate',
      error: expect.stringMatching(/500/),
    });

    agentServer.defaultMode = 'ok';
    const retried = await api.request('POST', `/api/v1/execute/${id}/retry`, { headers });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({
      requestId: id,
      status: 'completed',
      settlement: { status: 'settled' },
      output: expect.any(Object),
    });
    expect((await counts()).charges).toBe(before.charges + 1);
    expect((await counts()).payments).toBe(before.payments + 1);
    const again = await api.request('POST', `/api/v1/execute/${id}/retry`, { headers });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect(await invariants()).toEqual([]);
  });

  it('lets only the payer retry: no payment header is 401, another payment is 403, and neither charges, runs or shows output', async () => {
    const headers = await paid(newWallet());
    agentServer.defaultMode = 'fail';
    const failed = await execute(body({ text: 'retry-guard' }), headers);
    agentServer.defaultMode = 'ok';
    const id = failed.body.error.details.requestId;
    const before = await counts();
    const callsBefore = agentServer.calls.length;
    const anonymous = await api.request('POST', `/api/v1/execute/${id}/retry`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    const other = await api.request('POST', `/api/v1/execute/${id}/retry`, { headers: await paid(newWallet()) });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    expect(JSON.stringify([anonymous.body, other.body])).not.toMatch(/output/);
    expect(agentServer.calls.length).toBe(callsBefore);
    expect(await counts()).toEqual(before);
    expect((await api.request('GET', `/api/v1/execute/${id}`)).body.data.status).toBe('failed');
    expect((await ds.query(`SELECT retry_count FROM executions WHERE id = $1`, [id]))[0].retry_count).toBe(0);
  });

  it('times out a slow agent (504), charging nothing', async () => {
    const before = await counts();
    const res = await execute(body({ text: 'slow', mode: 'slow' }), await paid(newWallet()));
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('EXECUTION_TIMEOUT');
    expect((await api.request('GET', `/api/v1/execute/${res.body.error.details.requestId}`)).body.data.status).toBe(
      'timeout',
    );
    expect((await counts()).charges).toBe(before.charges);
  });

  it.each([
    ['output that breaks the outputSchema', 'bad-output', /outputSchema/],
    ['a response that is not JSON', 'not-json', /not JSON/],
  ])('fails on %s', async (_label, mode, agentError) => {
    const res = await execute(body({ text: 'x', mode }), await paid(newWallet()));
    expect(res.status).toBe(502);
    expect(res.body.error.details.agentError).toMatch(agentError);
  });

  it('refuses a payment header already used for another execution', async () => {
    const headers = await paid(newWallet());
    expect((await execute(body(), headers)).status).toBe(200);
    const replay = await execute(body({ text: 'again' }), headers);
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');
  });

  describe('replays before and after the agent is called', () => {
    const callsFor = (text: string) => agentServer.calls.filter((c) => c.json.input.text === text).length;
    const dropNonceClaims = async () => {
      const redis = api.app.get<Redis>(REDIS);
      const keys = await redis.keys(`${api.config.queuePrefix}:nonce:*`);
      if (keys.length) await redis.del(...keys);
      return keys.length;
    };

    it('turns concurrent replays of one header away before the agent: one 200, the rest 409, one agent call, one charge', async () => {
      const headers = await paid(newWallet());
      const before = await counts();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => execute(body({ text: 'burst-replay' }), headers)),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(answers.filter((r) => r.status === 409).every((r) => r.body.error.code === 'PAYMENT_REPLAYED')).toBe(true);
      expect(callsFor('burst-replay')).toBe(1);
      expect(await counts()).toEqual({
        payments: before.payments + 1,
        charges: before.charges + 1,
        executions: before.executions + 1,
      });
    });

    it('refuses a used header from the payments table when Redis has lost its claims, without calling the agent', async () => {
      const headers = await paid(newWallet());
      expect((await execute(body({ text: 'after-redis-loss' }), headers)).status).toBe(200);
      expect(await dropNonceClaims()).toBeGreaterThan(0);
      const replay = await execute(body({ text: 'after-redis-loss' }), headers);
      expect(replay.status).toBe(409);
      expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');
      expect(callsFor('after-redis-loss')).toBe(1);
    });

    it('never charges twice when Redis loses a claim mid-run: a concurrent replay may reach the agent, the unique index decides at commit', async () => {
      const headers = await paid(newWallet());
      const before = await counts();
      const first = execute(body({ text: 'lost-claim', delayMs: 300 }), headers);
      await waitUntil(() => callsFor('lost-claim') === 1);
      await dropNonceClaims();
      const second = await execute(body({ text: 'lost-claim', delayMs: 0 }), headers);
      const firstAnswer = await first;
      expect([firstAnswer.status, second.status].sort()).toEqual([200, 409]);
      expect([firstAnswer, second].find((r) => r.status === 409)!.body.error.code).toBe('PAYMENT_REPLAYED');
      expect(callsFor('lost-claim')).toBe(2);
      expect(await counts()).toEqual({
        payments: before.payments + 1,
        charges: before.charges + 1,
        executions: before.executions + 1,
      });
      expect(await invariants()).toEqual([]);
    });

    it('gives the claim back when the run could not be recorded, so the same header can be presented again', async () => {
      const headers = await paid(newWallet());
      const repo = api.app.get(ExecutionsRepository);
      const original = repo.insert;
      repo.insert = () => Promise.reject(new Error('database unavailable'));
      try {
        expect((await execute(body({ text: 'not-recorded' }), headers)).status).toBe(500);
      } finally {
        repo.insert = original;
      }
      const before = await counts();
      expect(await waitUntil(async () => (await execute(body({ text: 'not-recorded' }), headers)).status === 200)).toBe(
        true,
      );
      expect(await counts()).toEqual({
        payments: before.payments + 1,
        charges: before.charges + 1,
        executions: before.executions + 1,
      });
    });
  });

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

    it('charges once for 10 concurrent duplicates carrying different payments', async () => {
      const client = newWallet();
      const before = await counts();
      const results = await Promise.all(
        Array.from({ length: 10 }, async () =>
          execute(body({ text: 'race' }, { idempotencyKey: 'race-1' }), await paid(client)),
        ),
      );
      const ids = new Set(results.map((r) => r.body.data?.requestId));
      expect(results.every((r) => r.status === 200 || r.status === 202)).toBe(true);
      expect(ids.size).toBe(1);
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
