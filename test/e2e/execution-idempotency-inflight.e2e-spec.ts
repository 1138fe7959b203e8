import { Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { REDIS } from '@app/queues';
import { InFlightRuns } from '@app/execution';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

/**
 * A sync request with an idempotency key writes nothing before its agent answers; its key's in-flight
 * claim (Redis) stands for it meanwhile. Duplicates that arrive while it runs wait for its answer;
 * the unique key decides at commit when the claim is lost.
 */
describe('idempotency keys of running requests (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_TIMEOUT_MS: '2000',
      // A duplicate waits at most the run's time limit and this grace (3 s) for the request holding its key.
      RUN_CLAIM_GRACE_MS: '1000',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const body = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    targetAgentId: agentId,
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
  const counts = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM payments WHERE purpose = 'execution')::int AS payments, (SELECT count(*) FROM transactions)::int AS charges,
                (SELECT count(*) FROM executions)::int AS executions`,
      )
    )[0] as { payments: number; charges: number; executions: number };
  const agentCalls = (text: string) => agentServer.calls.filter((c) => c.json.input.text === text).length;
  const waitForCall = (text: string) => waitFor(async () => agentCalls(text) > 0, `the agent to get '${text}'`);
  const redis = () => api.app.get<Redis>(REDIS);
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('answers a duplicate that arrives while the first runs with its result once it ends: same payment, new payment, other input', async () => {
    const client = newWallet();
    const before = await counts();
    const header = await paid(client);
    const first = execute(body({ text: 'inflight', delayMs: 300 }, { idempotencyKey: 'fly-1' }), header);
    await waitForCall('inflight');
    const [samePayment, newPayment, otherInput] = await Promise.all([
      execute(body({ text: 'inflight', delayMs: 300 }, { idempotencyKey: 'fly-1' }), header),
      execute(body({ text: 'inflight', delayMs: 300 }, { idempotencyKey: 'fly-1' }), await paid(client)),
      execute(body({ text: 'other', delayMs: 300 }, { idempotencyKey: 'fly-1' }), await paid(client)),
    ]);
    const answer = await first;
    expect(answer.status).toBe(200);
    for (const r of [samePayment, newPayment]) {
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        requestId: answer.body.data.requestId,
        transactionId: answer.body.data.transactionId,
        output: { translation: 'INFLIGHT' },
      });
    }
    expect([otherInput.status, otherInput.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(agentCalls('inflight') + agentCalls('other')).toBe(1);
    const after = await counts();
    expect(after.charges - before.charges).toBe(1);
    expect(after.payments - before.payments).toBe(1);
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

  it('tells a duplicate to retry later (409) when the request holding its key outlives the run time limit and grace; the agent is not called', async () => {
    const client = newWallet();
    const before = await counts();
    // A holder that never lets go (stuck, or its claim refreshed by others): held for a minute.
    const held = api.app.get(InFlightRuns).request(client.address, 'stuck-1');
    await redis().set(held.key, 'someone-else', 'PX', 60_000);
    const started = Date.now();
    const res = await execute(body({ text: 'stuck' }, { idempotencyKey: 'stuck-1' }), await paid(client));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect([res.status, res.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(res.body.error.message).toMatch(/still running/);
    expect(agentCalls('stuck')).toBe(0);
    expect(await counts()).toEqual(before);
    // Once it is gone, the same request runs.
    await redis().del(held.key);
    const ran = await execute(body({ text: 'stuck' }, { idempotencyKey: 'stuck-1' }), await paid(client));
    expect(ran.status).toBe(200);
    expect(agentCalls('stuck')).toBe(1);
  });
});
