import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { RunPendingExecution } from '@app/execution';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
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

  it('finishes a sync execution with an idempotency key whose process died mid-run: the sweeper finds it once its claim runs out, one charge', async () => {
    const headers = await paid(newWallet());
    const before = await rows();
    agentServer.defaultMode = 'slow';
    const inFlight = execute(body({ text: 'crash' }, { idempotencyKey: 'crash-1' }), headers);
    const [pending] = await waitFor(async () => {
      const r = await ds.query(
        `SELECT id, status, locked_until FROM executions WHERE status = 'pending' AND NOT is_async ORDER BY created_at DESC LIMIT 1`,
      );
      return r.length ? r : null;
    }, 'the sync execution to be written');
    expect(pending.locked_until).not.toBeNull();
    agentServer.defaultMode = 'ok';
    // The process holding it is gone (or its claim ran out): time passes beyond the claim.
    await ds.query(`UPDATE executions SET locked_until = now() - interval '1 second' WHERE id = $1`, [pending.id]);
    const runs = api.app
      .get(SweepRegistry)
      .all()
      .find((s) => s.job === 'execution.run')!;
    expect((await runs.due()).map((w) => w.id)).toContain(pending.id);
    const taken = await api.app.get(RunPendingExecution).execute(pending.id);
    expect(taken.execution).toMatchObject({ status: 'completed', settlementStatus: 'settled' });
    expect((await runs.due()).map((w) => w.id)).not.toContain(pending.id);
    const late = await inFlight; // the first run's answer arrives after the takeover: it charges nothing more
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ requestId: pending.id, status: 'completed' });
    const again = await execute(body({ text: 'crash' }, { idempotencyKey: 'crash-1' }), headers);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      requestId: pending.id,
      status: 'completed',
      settlement: { status: 'settled' },
    });
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
