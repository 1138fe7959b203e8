import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { ExecutionsRepository } from '@app/execution';
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

  it('retries with no request data as the contract has it; another payment is 403; output only to the payer', async () => {
    const headers = await paid(newWallet());
    agentServer.defaultMode = 'fail';
    const failed = await execute(body({ text: 'retry-guard' }), headers);
    agentServer.defaultMode = 'ok';
    const id = failed.body.error.details.requestId;
    const before = await counts();
    const callsBefore = agentServer.calls.length;
    const other = await api.request('POST', `/api/v1/execute/${id}/retry`, { headers: await paid(newWallet()) });
    expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(JSON.stringify(other.body)).not.toMatch(/output/);
    expect(agentServer.calls.length).toBe(callsBefore);
    expect(await counts()).toEqual(before);
    expect((await ds.query(`SELECT retry_count FROM executions WHERE id = $1`, [id]))[0].retry_count).toBe(0);
    // No payment header (the contract's retry): runs once with the stored authorization, charged once.
    const retried = await api.request('POST', `/api/v1/execute/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ requestId: id, status: 'completed', settlement: { status: 'settled' } });
    expect(retried.body.data.output).toBeUndefined();
    expect(retried.body.data.message).toMatch(/payment header/);
    // Nor its receipt (it names the payer and hashes of input and output): for the payer's proof only.
    expect([retried.headers.get('x-payment-response'), retried.headers.get('payment-response')]).toEqual([null, null]);
    expect(agentServer.calls.length).toBe(callsBefore + 1);
    expect((await counts()).charges).toBe(before.charges + 1);
    const read = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(read.body.data.output).toEqual(expect.any(Object));
    const again = await api.request('POST', `/api/v1/execute/${id}/retry`);
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect((await counts()).charges).toBe(before.charges + 1);
    expect(await invariants()).toEqual([]);
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

    it('turns concurrent replays of one header away before the agent: one run, the rest 409 or its answer, one agent call, one charge', async () => {
      const headers = await paid(newWallet());
      const before = await counts();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => execute(body({ text: 'burst-replay' }), headers)),
      );
      // A replay admitted after the run was recorded is the same request (a keyless retry): its answer.
      const ok = answers.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((r) => r.body.data.requestId)).size).toBe(1);
      expect(answers.filter((r) => r.status !== 200).map((r) => [r.status, r.body.error.code])).toEqual(
        Array.from({ length: 6 - ok.length }, () => [409, 'PAYMENT_REPLAYED']),
      );
      expect(callsFor('burst-replay')).toBe(1);
      expect(await counts()).toEqual({
        payments: before.payments + 1,
        charges: before.charges + 1,
        executions: before.executions + 1,
      });
    });

    it('knows a used header from the payments table when Redis has lost its claims, without calling the agent', async () => {
      const headers = await paid(newWallet());
      const first = await execute(body({ text: 'after-redis-loss' }), headers);
      expect(first.status).toBe(200);
      expect(await dropNonceClaims()).toBeGreaterThan(0);
      // Other input: refused. The same request (a keyless client that lost the answer): that execution.
      const replay = await execute(body({ text: 'after-redis-loss, other' }), headers);
      expect(replay.status).toBe(409);
      expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');
      const same = await execute(body({ text: 'after-redis-loss' }), headers);
      expect([same.status, same.body.data.requestId]).toEqual([200, first.body.data.requestId]);
      expect(callsFor('after-redis-loss')).toBe(1);
      expect(callsFor('after-redis-loss, other')).toBe(0);
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
});
