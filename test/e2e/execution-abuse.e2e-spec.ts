import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { RunPendingExecution } from '@app/execution';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { startApiProcess } from '../support/api-process';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee

/** The review's abuse findings on the execute path (issue 11, defects 3, 4 and 6), each as it was tried. */
describe('execute path under abuse (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', EXECUTION_TIMEOUT_MS: '5000' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
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

  const body = (input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    targetAgentId: agentId,
    capabilityId: 'translate',
    input,
    ...extra,
  });
  const paid = async (client: Wallet, amount = PRICE) => {
    const h = await x402Header(client, { amount, payTo: api.config.platformWallet });
    return { [h.name]: h.value };
  };
  const execute = (b: unknown, headers: Record<string, string> = {}, query = '') =>
    api.request('POST', `/api/v1/execute${query}`, { body: b, headers });
  const rows = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM payments WHERE purpose = 'execution')::int AS payments, (SELECT count(*) FROM transactions)::int AS charges,
                (SELECT count(*) FROM executions)::int AS executions, (SELECT count(*) FROM escrow_holds)::int AS holds`,
      )
    )[0] as { payments: number; charges: number; executions: number; holds: number };
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  describe('text Postgres cannot store (NUL, unpaired surrogates)', () => {
    it('is refused at the edge with 400 VALIDATION_ERROR on every route, in bodies and queries, naming where, and nothing is written or charged', async () => {
      const before = await rows();
      const nul = await execute(body({ text: 'a\u0000b' }), await paid(newWallet()));
      expect(nul.status).toBe(400);
      expect(nul.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { errors: [{ field: '/input/text' }] },
      });
      const surrogate = await api.request('POST', '/api/v1/execute', {
        raw: `{"targetAgentId":"${agentId}","capabilityId":"translate","input":{"text":"\\ud800"}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(surrogate.status).toBe(400);
      const inKey = await api.request('POST', '/api/v1/agents', {
        raw: '{"name\\u0000":"x"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(inKey.status).toBe(400);
      expect(inKey.body.error.code).toBe('VALIDATION_ERROR');
      const deep = await api.request('POST', '/api/v1/execute', {
        raw: `{"targetAgentId":"${agentId}","capabilityId":"translate","input":{"text":"x","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
        headers: { 'content-type': 'application/json', ...(await paid(newWallet())) },
      });
      expect(deep.status).toBe(400);
      expect(deep.body.error.message).toMatch(/deeper than 64 levels/);
      const inQuery = await api.request('GET', '/api/v1/discover?capability=a%00b');
      expect(inQuery.status).toBe(400);
      expect(inQuery.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { errors: [{ field: 'query/capability' }] },
      });
      expect((await api.request('GET', '/api/v1/discover?capability=caf%C3%A9')).status).toBe(200);
      // An escaped backslash followed by "u0000" is ordinary text.
      const escaped = await execute(body({ text: 'C:\\u0000dir' }), await paid(newWallet()));
      expect(escaped.status).toBe(200);
      expect(await rows()).toMatchObject({ charges: before.charges + 1 });
    });

    it('fails a sync run whose agent output holds NUL (nothing charged), records it, and the authorization cannot buy another agent call', async () => {
      const headers = await paid(newWallet());
      const calls = agentServer.calls.length;
      const before = await rows();
      agentServer.defaultMode = 'nul-output';
      const first = await execute(body({ text: 'x' }), headers);
      expect(first.status).toBe(502);
      expect(first.body.error.details.agentError).toMatch(/cannot be stored/);
      const replay = await execute(body({ text: 'x' }), headers);
      expect(replay.status).toBe(409);
      expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');
      expect(agentServer.calls.length).toBe(calls + 1);
      expect(await rows()).toEqual({ ...before, payments: before.payments + 1, executions: before.executions + 1 });
    });

    it('brings an async run whose agent errs with a raw NUL to a terminal state, with the text cleaned', async () => {
      agentServer.defaultMode = 'nul-error';
      const accepted = await execute(body({ text: 'y' }), await paid(newWallet()), '?async=true');
      expect(accepted.status).toBe(202);
      const outcome = await api.app.get(RunPendingExecution).execute(accepted.body.data.jobId);
      expect(outcome.execution.status).toBe('failed');
      const [row] = await ds.query(`SELECT status, agent_error FROM executions WHERE id = $1`, [
        accepted.body.data.jobId,
      ]);
      expect(row.status).toBe('failed');
      expect(row.agent_error).toContain('broke \ufffd here');
      expect(await invariants()).toEqual([]);
    });
  });

  it('leaves nothing of a sync execution with an idempotency key whose process died mid-run; a retry waits out its claim and runs once, one charge', async () => {
    // A process of its own, killed -9 while the agent works: its key's claim lasts 1.5 s past its time limit.
    const proc = await startApiProcess({ ...api.env, EXECUTION_TIMEOUT_MS: '1000', RUN_CLAIM_GRACE_MS: '1500' });
    const client = newWallet();
    const before = await rows();
    const calls = () => agentServer.calls.filter((c) => c.json.input.text === 'crash').length;
    agentServer.defaultMode = 'slow';
    const lost = fetch(`${proc.url}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await paid(client)) },
      body: JSON.stringify(body({ text: 'crash' }, { idempotencyKey: 'crash-1' })),
    }).catch((err: Error) => err);
    await waitFor(async () => calls() === 1, 'the agent to get the first request');
    proc.process.child.kill('SIGKILL');
    await proc.process.exited;
    expect(await lost).toMatchObject({ message: 'fetch failed' }); // the connection died with the process
    // Nothing was written before the agent answered: no execution, no payment, no key.
    expect(await rows()).toEqual(before);
    const [key] = await ds.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'crash-1'`);
    expect(key.n).toBe(0);
    agentServer.defaultMode = 'ok';
    // The retry (a new authorization, the same key) waits until the dead request's claim runs out, then runs.
    const retry = await execute(body({ text: 'crash' }, { idempotencyKey: 'crash-1' }), await paid(client));
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ status: 'completed', output: { translation: 'CRASH' } });
    expect(calls()).toBe(2);
    const again = await execute(body({ text: 'crash' }, { idempotencyKey: 'crash-1' }), await paid(client));
    expect(again.body.data).toMatchObject({
      requestId: retry.body.data.requestId,
      transactionId: retry.body.data.transactionId,
    });
    expect(calls()).toBe(2);
    expect(await rows()).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
      holds: before.holds + 1,
    });
    expect(await invariants()).toEqual([]);
  });

  it('keeps unverified payments out of the agent window: 1,000 bad payments from fresh wallets, then a real payer is served', async () => {
    const calls = agentServer.calls.length;
    // Signed by 100 fresh wallets for the wrong amount (the signature recovers, the payment does
    // not verify), each header sent 10 times.
    const bad = await Promise.all(Array.from({ length: 100 }, () => paid(newWallet(), PRICE - 1n)));
    let sent = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (sent < 1_000) {
        const res = await execute(body({ text: 'spam' }), bad[sent++ % bad.length]);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect([...statuses.values()].reduce((a, b) => a + b)).toBe(1_000);
    expect([...statuses.keys()].sort()).toEqual([402, 429]);
    expect(agentServer.calls.length).toBe(calls);
    const served = await execute(body({ text: 'real' }), await paid(newWallet()));
    expect(served.status).toBe(200);
    expect(served.body.data.output).toBeDefined();
    const agentLimit = api.config.rateLimitAgentPerMin;
    expect(Number(served.headers.get('x-ratelimit-agent-remaining'))).toBeGreaterThanOrEqual(agentLimit - 10);
  }, 120_000);
});
