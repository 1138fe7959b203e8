import { Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { REDIS } from '@app/queues';
import { InFlightRuns, MAX_WAITERS } from '@app/execution';
import type { ApiHarness } from '../support/api-harness';
import type { TestAgentServer } from '../support/agent-server';
import { ApiWithAgent, startApiWithAgent } from '../support/api-with-agent';
import { waitFor } from '../support/processes';
import { clientSignature } from '../support/disputes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { executionCounts } from '../support/x402-client';

const PRICE = 11_000n;

/**
 * A sync request with an idempotency key writes nothing before its agent answers; its key's in-flight
 * claim (Redis) stands for it meanwhile. Duplicates that arrive while it runs wait for its answer;
 * the unique key decides at commit when the claim is lost.
 */
describe('idempotency keys of running requests (e2e)', () => {
  let fixture: ApiWithAgent;
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    fixture = await startApiWithAgent({ EXECUTION_TIMEOUT_MS: '2000' });
    ({ api, ds, agentServer } = fixture);
  });
  afterAll(() => fixture.stop());

  const body = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    targetAgentId: fixture.agentId,
    capabilityId: 'translate',
    input,
    ...extra,
  });
  const paid = async (client: Wallet) => {
    const h = await x402Header(client, { amount: PRICE, payTo: api.config.platformWallet });
    return { [h.name]: h.value };
  };
  const execute = (b: unknown, headers: Record<string, string> = {}) =>
    api.request('POST', '/api/v1/execute', { body: b, headers });
  const counts = () => executionCounts(ds);
  const agentCalls = (text: string) => agentServer.calls.filter((c) => c.json.input.text === text).length;
  const waitForCall = (text: string) => waitFor(async () => agentCalls(text) > 0, `the agent to get '${text}'`);
  const redis = () => api.app.get<Redis>(REDIS);
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('answers a duplicate that arrives while the first runs with its result once it ends (same payment or new); other input or async at once', async () => {
    const client = newWallet();
    const before = await counts();
    const header = await paid(client);
    const key = 'inflight-key-0001';
    let firstDone = false;
    const first = execute(body({ text: 'inflight', delayMs: 600 }, { idempotencyKey: key }), header).finally(
      () => (firstDone = true),
    );
    await waitForCall('inflight');
    // Its payment's status, while nothing is written yet: pending, with the request id it will have.
    // (Its keys are the payer's own: looked up with its signature; unsigned, the key names nothing.)
    const statusUrl = `/api/v1/payments/status/${key}?payer=${client.address}`;
    expect((await api.request('GET', statusUrl)).status).toBe(404);
    const status = await api.request('GET', statusUrl, { headers: await clientSignature(client, client.address) });
    expect(status.status).toBe(200);
    expect(status.body.data.payments).toEqual([
      expect.objectContaining({
        status: 'settlement_pending',
        purpose: 'execution',
        payer: client.address.toLowerCase(),
        amount: '0.011000',
        txHash: null,
        requestId: expect.stringMatching(/^req_/),
      }),
    ]);
    // Told at once, without waiting for the first: other input (a conflict), and an async duplicate (in progress).
    const otherInput = await execute(body({ text: 'other' }, { idempotencyKey: key }), await paid(client));
    expect([otherInput.status, otherInput.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(otherInput.body.error.details.reason).toBeUndefined();
    const async = await api.request('POST', '/api/v1/execute?async=true', {
      body: body({ text: 'inflight', delayMs: 600 }, { idempotencyKey: key }),
      headers: await paid(client),
    });
    expect([async.status, async.body.error.code, async.body.error.details]).toEqual([
      409,
      'IDEMPOTENCY_CONFLICT',
      { idempotencyKey: key, reason: 'in_progress', retryAfter: expect.any(Number) },
    ]);
    expect(Number(async.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(firstDone).toBe(false);
    const [samePayment, newPayment] = await Promise.all([
      execute(body({ text: 'inflight', delayMs: 600 }, { idempotencyKey: key }), header),
      execute(body({ text: 'inflight', delayMs: 600 }, { idempotencyKey: key }), await paid(client)),
    ]);
    const answer = await first;
    expect(answer.status).toBe(200);
    expect(answer.body.data.requestId).toBe(status.body.data.payments[0].requestId);
    for (const r of [samePayment, newPayment]) {
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        requestId: answer.body.data.requestId,
        transactionId: answer.body.data.transactionId,
        output: { translation: 'INFLIGHT' },
      });
    }
    expect(agentCalls('inflight') + agentCalls('other')).toBe(1);
    const after = await counts();
    expect(after.charges - before.charges).toBe(1);
    expect(after.payments - before.payments).toBe(1);
    const settled = await api.request('GET', statusUrl, { headers: await clientSignature(client, client.address) });
    expect(settled.body.data.payments).toEqual([
      expect.objectContaining({ status: 'settled', requestId: answer.body.data.requestId }),
    ]);
  });

  it('records a failed run with its key: a retry answers the failure, the agent is not called again, nothing charged', async () => {
    const client = newWallet();
    const before = await counts();
    const failed = await execute(
      body({ text: 'broken', mode: 'fail' }, { idempotencyKey: 'fail-1' }),
      await paid(client),
    );
    expect([failed.status, failed.body.error.code]).toEqual([502, 'EXECUTION_FAILED']);
    const again = await execute(
      body({ text: 'broken', mode: 'fail' }, { idempotencyKey: 'fail-1' }),
      await paid(client),
    );
    expect(again.status).toBe(failed.status);
    expect(again.body.error.details.requestId).toBe(failed.body.error.details.requestId);
    expect(agentCalls('broken')).toBe(1);
    const [key] = await ds.query(`SELECT execution_id FROM idempotency_keys WHERE key = 'fail-1'`);
    expect(key.execution_id).toBe(failed.body.error.details.requestId);
    expect((await counts()).charges).toBe(before.charges);
  });

  it('lets only one of two runs keep a key whose in-flight claim Redis lost: the other rolls back and answers the winner, one charge', async () => {
    const client = newWallet();
    const before = await counts();
    const first = execute(body({ text: 'lost claim', delayMs: 300 }, { idempotencyKey: 'lost-1' }), await paid(client));
    await waitForCall('lost claim');
    // The claim is gone (Redis lost it): a duplicate runs too, and both race to record the key.
    const claims = await redis().keys(`${api.env.QUEUE_PREFIX}:run:*`);
    expect(claims.length).toBeGreaterThan(0);
    await redis().del(...claims);
    const second = await execute(
      body({ text: 'lost claim', delayMs: 300 }, { idempotencyKey: 'lost-1' }),
      await paid(client),
    );
    const firstAnswer = await first;
    expect(agentCalls('lost claim')).toBe(2);
    expect([firstAnswer.status, second.status]).toEqual([200, 200]);
    expect(firstAnswer.body.data.requestId).toBe(second.body.data.requestId);
    const after = await counts();
    expect(after.charges - before.charges).toBe(1);
    expect(after.payments - before.payments).toBe(1);
    expect(after.executions - before.executions).toBe(1);
    expect(await invariants()).toEqual([]);
  });

  it('tells a duplicate to retry later (409, Retry-After) once it waited a run time limit, or at once when 8 already wait; the agent is not called', async () => {
    const client = newWallet();
    const before = await counts();
    // A holder that never lets go (its process stuck): held for a minute.
    const held = api.app.get(InFlightRuns).keyOf(client.address, 'stuck-1');
    await redis().set(held, 'someone-else', 'PX', 60_000);
    const started = Date.now();
    const res = await execute(body({ text: 'stuck' }, { idempotencyKey: 'stuck-1' }), await paid(client));
    // The wait: the run's time limit (2 s) and 5 s for its charge.
    expect(Date.now() - started).toBeGreaterThanOrEqual(6_900);
    expect([res.status, res.body.error.code, res.body.error.details.reason]).toEqual([
      409,
      'IDEMPOTENCY_CONFLICT',
      'in_progress',
    ]);
    expect(res.body.error.message).toMatch(/still running/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(40);
    // Eight waiting already: the ninth is told at once.
    await redis().set(`${held}:waiters`, String(MAX_WAITERS), 'PX', 60_000);
    const crowdedAt = Date.now();
    const crowded = await execute(body({ text: 'stuck' }, { idempotencyKey: 'stuck-1' }), await paid(client));
    expect(Date.now() - crowdedAt).toBeLessThan(2_000);
    expect([crowded.status, crowded.body.error.details.reason]).toEqual([409, 'in_progress']);
    expect(agentCalls('stuck')).toBe(0);
    expect(await counts()).toEqual(before);
    // Once it is gone, the same request runs.
    await redis().del(held, `${held}:waiters`);
    const ran = await execute(body({ text: 'stuck' }, { idempotencyKey: 'stuck-1' }), await paid(client));
    expect(ran.status).toBe(200);
    expect(agentCalls('stuck')).toBe(1);
  });
});
