import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/** Issue 53: an async paid run whose worker died finishes on another worker within this of the kill. */
const RECOVERY_BOUND_MS = 30_000;

/**
 * Issue 53 for async runs, with the shipped defaults (SETTLEMENT_LEASE_MS, MAINTENANCE_INTERVAL_MS unset)
 * unless a test says otherwise: a worker killed (SIGKILL) while its agent answers leaves a claim that
 * another worker takes over within 30 s (before, the claim was the run's whole time and a grace: 90 s),
 * runs and charges once. A live run slower than its claim keeps it renewed: never taken over, one call.
 */
describe('run claims: a dead worker is taken over within 30 s, a live one never (faults)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let agentId: string;
  const workers: RunningProcess[] = [];

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  });
  afterAll(async () => {
    await api?.close();
    await agentServer?.stop();
  });

  const startWorker = (env: Record<string, string> = {}) => {
    const w = startProcess(builtApp('worker'), { ...api.env, ...env });
    workers.push(w);
    return w;
  };
  const callsFor = (text: string) => agentServer.calls.filter((c) => c.json.input.text === text).length;
  /** An async paid run of the slow mode (the agent answers after 2 s): its request id and its payment header. */
  async function slowRun(text: string) {
    const h = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute?async=true', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text, mode: 'slow' } },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(202);
    return { id: res.body.data.requestId as string, statusUrl: res.body.data.statusUrl as string, h };
  }
  const charges = (id: string) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(
        `SELECT status, (SELECT count(*)::int FROM transactions t WHERE t.id = e.transaction_id) AS charged
           FROM executions e WHERE id = $1`,
        [id],
      );
      return r.rows[0] as { status: string; charged: number };
    });

  it('a worker killed while its agent answers: another runs it within 30 s, charged once', async () => {
    const doomed = startWorker();
    const run = await slowRun('killed');
    await waitFor(async () => callsFor('killed') === 1, 'the first worker to call the agent');
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const killedAt = performance.now();

    startWorker();
    await waitFor(async () => (await charges(run.id)).status === 'completed', 'the run to complete', RECOVERY_BOUND_MS);
    const tookMs = performance.now() - killedAt;
    console.log(`issue 53: run claim: async run completed ${(tookMs / 1000).toFixed(1)} s after the kill`);
    expect(tookMs).toBeLessThan(RECOVERY_BOUND_MS);
    await waitFor(async () => (await charges(run.id)).charged === 1, 'the run to be charged');
    expect(callsFor('killed')).toBe(2); // the dead worker's call and the new one's
    const read = await api.request('GET', run.statusUrl, { headers: { [run.h.name]: run.h.value } });
    expect(read.body.data).toMatchObject({ status: 'completed', output: { translation: 'late' } });
  }, 60_000);

  it('a live run slower than its claim is renewed, never taken over: one call', async () => {
    // A 600 ms claim swept every 300 ms, against an agent that answers after 2 s.
    startWorker({ SETTLEMENT_LEASE_MS: '600', MAINTENANCE_INTERVAL_MS: '300' });
    const run = await slowRun('live');
    await waitFor(async () => (await charges(run.id)).charged === 1, 'the run to be charged');
    expect(callsFor('live')).toBe(1);
  }, 30_000);
});
