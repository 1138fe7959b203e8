import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { onFreePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const CLIENT_LIMIT = 6;
const ASYNC_RUNS = 40;

/**
 * Issue 16, many instances: two api processes and two worker processes on one Postgres and one
 * Redis. A client's rate limit holds across both apis; one payment header sent to both at once is
 * charged once; async executions accepted by either api are each run once by one of the workers;
 * the invariants hold at the end.
 */
describe('faults: two apis and two workers on one Postgres and Redis (e2e)', () => {
  let harness: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  const procs: RunningProcess[] = [];
  const apis: string[] = [];
  let agentId: string;

  const env = () => ({ ...harness.env, LOG_LEVEL: 'warn', MAINTENANCE_INTERVAL_MS: '1000', WORKER_HEARTBEAT_MS: '200' });

  async function startApiProcess(): Promise<string> {
    return onFreePort(async (port) => {
      const p = startProcess(builtApp('api'), { ...env(), PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
      try {
        await waitFor(async () => {
          if (p.child.exitCode !== null) throw new Error(`api exited on port ${port}:\n${p.output()}`);
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null);
          return res?.status === 200;
        }, `api process on ${port}`);
      } catch (err) {
        p.child.kill('SIGKILL');
        await p.exited;
        throw err;
      }
      procs.push(p);
      return `http://127.0.0.1:${port}`;
    });
  }

  async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    // The harness gives the database and the Redis prefix (and registers the agent); the traffic goes to the processes.
    harness = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_CLIENT_PER_MIN: String(CLIENT_LIMIT) });
    ds = harness.app.get(DataSource);
    const res = await registerAgent(harness, newWallet(), { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    apis.push(await startApiProcess(), await startApiProcess());
    for (let i = 0; i < 2; i++) procs.push(startProcess(builtApp('worker'), env()));
    await waitFor(async () => (await fetch(`${apis[0]}/api/v1/health/worker`)).status === 200, 'a worker heartbeat');
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await harness.close();
    await agentServer.stop();
  });

  const execute = async (base: string, payer = newWallet(), query = '', input: Record<string, unknown> = { text: 'hola' }) => {
    const h = await x402Header(payer, { amount: PRICE, payTo: harness.config.platformWallet });
    return post(base, `/api/v1/execute${query}`, { targetAgentId: agentId, capabilityId: 'translate', input }, { [h.name]: h.value });
  };

  it("a client's rate limit holds across both apis", async () => {
    const payer = newWallet();
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_LIMIT + 2; i++) statuses.push((await execute(apis[i % 2], payer)).status);
    expect(statuses.slice(0, CLIENT_LIMIT)).toEqual(Array(CLIENT_LIMIT).fill(200));
    expect(statuses.slice(CLIENT_LIMIT)).toEqual([429, 429]);
  });

  it('one payment header sent to both apis at once is charged once', async () => {
    for (let round = 0; round < 5; round++) {
      const h = await x402Header(newWallet(), { amount: PRICE, payTo: harness.config.platformWallet });
      const body = { targetAgentId: agentId, capabilityId: 'translate', input: { text: `same header ${round}` } };
      const results = await Promise.all(apis.map((base) => post(base, '/api/v1/execute', body, { [h.name]: h.value })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.error.code).toBe('PAYMENT_REPLAYED');
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM payments WHERE nonce = $1`, [h.nonce]);
      expect(n).toBe(1);
    }
  });

  it(`${ASYNC_RUNS} async executions accepted by either api are each run once, by the workers; invariants hold`, async () => {
    const accepted = await Promise.all(Array.from({ length: ASYNC_RUNS }, (_, i) => execute(apis[i % 2], newWallet(), '?async=true', { text: `async ${i}` })));
    expect(accepted.map((r) => r.status)).toEqual(Array(ASYNC_RUNS).fill(202));
    const ids: string[] = accepted.map((r) => r.body.data.jobId);
    await waitFor(
      async () => (await ds.query(`SELECT count(*)::int AS n FROM executions WHERE id = ANY($1) AND transaction_id IS NOT NULL`, [ids]))[0].n === ASYNC_RUNS,
      'every async execution charged',
      60_000,
    );
    const calls = agentServer.calls.filter((c) => ids.includes(c.json.requestId));
    const perId = new Map<string, number>();
    for (const c of calls) perId.set(c.json.requestId, (perId.get(c.json.requestId) ?? 0) + 1);
    expect([...perId.values()].every((n) => n === 1) && perId.size === ASYNC_RUNS).toBe(true);
    const [{ charges }] = await ds.query(`SELECT count(*)::int AS charges FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = ANY($1)`, [ids]);
    expect(charges).toBe(ASYNC_RUNS);
    const report = await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS, ...DISPUTE_CHECKS]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  }, 120_000);
});
