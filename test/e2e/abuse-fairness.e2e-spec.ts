import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { JobProducer } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { JsonReceiver, Reply } from '../support/json-receiver';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { parsePrometheus, sampleValue } from '../support/prometheus';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
/** A peer that never answers (within the test): the attack's agent and receiver. */
const SILENT: Reply = { status: 200, delayMs: 3_600_000 };
/** What another client waits at most, whatever one agent or receiver does to its own runs. */
const DEADLINE_MS = 5_000;
const TOKEN = 'test-admin-key-0123456789';

/**
 * Issue 29, item 3: async runs and deliveries could be starved for free. 32 `?async=true` runs on an
 * agent that never answers held the worker's 16 slots for their 30 s timeouts (another client's run
 * completed after 59.7 s); callbacks to a receiver that never answers held the webhooks queue the
 * same way. Now each agent has at most WORKER_AGENT_CONCURRENCY runs going and each destination
 * host WEBHOOK_HOST_CONCURRENCY deliveries (default 2); the rest wait their turn, delayed, not
 * dropped. Default timeouts and concurrency: the worker as shipped.
 */
describe('abuse: one agent or receiver only slows itself (e2e, the worker process)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess;
  let fastAgent: TestAgentServer;
  let workerMetrics: string;
  let ts = Date.now();

  beforeAll(async () => {
    fastAgent = await new TestAgentServer().start();
    // A short sweep interval: the sweeper runs many times while runs wait their turn, and must not run them twice.
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '1000',
    });
    ds = api.app.get(DataSource);
    const port = await freePort();
    worker = startProcess(builtApp('worker'), { ...api.env, METRICS_PORT: String(port) });
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    await waitFor(
      async () => (await api.request('GET', '/api/v1/health/worker')).status === 200,
      'the worker heartbeat',
      30_000,
    );
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGKILL');
    await worker.exited;
    await api.close();
    await fastAgent.stop();
  });

  const register = async (endpoint: string, owner: Wallet = newWallet()): Promise<string> => {
    const res = await registerAgent(api, owner, { endpoints: { execution: endpoint } });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  const execute = async (
    payer: Wallet,
    agentId: string,
    text: string,
    opts: { async?: boolean; callbackUrl?: string } = {},
  ) => {
    const h = await x402Header(payer, { amount: PRICE, payTo: api.config.platformWallet });
    const body = {
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text },
      ...(opts.callbackUrl ? { callbackUrl: opts.callbackUrl } : {}),
    };
    return api.request('POST', `/api/v1/execute${opts.async ? '?async=true' : ''}`, {
      body,
      headers: { [h.name]: h.value },
    });
  };
  const queued = async (queue: string, state: string): Promise<number> =>
    (await api.app.get(JobProducer).depths()).find((d) => d.queue === queue && d.state === state)?.count ?? 0;
  const capped = async (queue: string): Promise<number> => {
    const res = await fetch(workerMetrics, { headers: { authorization: `Bearer ${TOKEN}` } });
    return sampleValue(parsePrometheus(await res.text()), 'agora_jobs_capped_total', { queue }) ?? 0;
  };

  it('32 async runs on an agent that never answers: another wallet completes a run on another agent within 5 s; the 32 wait their turn, none lost or charged', async () => {
    const silent = await new JsonReceiver().start('/agent');
    silent.reply = () => SILENT;
    try {
      const silentAgent = await register(silent.url);
      const otherAgent = await register(fastAgent.url);
      const attacker = newWallet();
      const ids: string[] = await Promise.all(
        Array.from({ length: 32 }, async (_, i) => {
          const res = await execute(attacker, silentAgent, `hold ${i}`, { async: true });
          expect(res.status).toBe(202);
          return res.body.data.jobId;
        }),
      );
      // The attack is in place once the worker has taken the silent runs it will take: all 16 slots
      // calling the silent agent (before), or its 2 and every other run waiting its turn.
      await waitFor(
        async () =>
          silent.received.length >= 16 ||
          (silent.received.length >= 2 && (await queued('executions', 'waiting')) === 0),
        'the worker taking the silent runs',
      );

      const started = Date.now();
      const res = await execute(newWallet(), otherAgent, 'fast', { async: true });
      expect(res.status).toBe(202);
      await waitFor(
        async () => (await api.request('GET', res.body.data.statusUrl)).body.data.status === 'completed',
        'the other run completing',
        DEADLINE_MS,
      );
      expect(Date.now() - started).toBeLessThan(DEADLINE_MS);

      // Two calls reached the silent agent; the other 30 runs wait: pending, unclaimed, each a delayed
      // job, and marked in line so the sweeper (every second here) does not enqueue them again.
      expect(silent.received).toHaveLength(2);
      const rows: { status: string; claimed: boolean; inLine: boolean }[] = await ds.query(
        `SELECT status, locked_until IS NOT NULL AS claimed, coalesce(next_attempt_at > now(), false) AS "inLine" FROM executions WHERE id = ANY($1)`,
        [ids],
      );
      expect(rows.filter((r) => r.status === 'pending')).toHaveLength(32);
      expect(rows.filter((r) => r.claimed)).toHaveLength(2);
      expect(rows.filter((r) => !r.claimed && r.inLine)).toHaveLength(30);
      expect(await queued('executions', 'delayed')).toBe(30);
      expect(await capped('executions')).toBeGreaterThanOrEqual(30);

      // The silent agent goes away: every run ends in its turn, each called once, nothing charged.
      await silent.stop();
      const ended = async () =>
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM executions WHERE id = ANY($1) AND status IN ('failed', 'timeout')`,
            [ids],
          )
        )[0].n;
      await waitFor(async () => (await ended()) === 32, 'the 32 silent runs ending', 30_000);
      expect(new Set(silent.received.map((r) => r.body.requestId)).size).toBe(silent.received.length);
      const [money] = await ds.query(
        `SELECT count(*) FILTER (WHERE e.transaction_id IS NOT NULL OR e.settlement_status IS NOT NULL)::int AS charged,
                count(*) FILTER (WHERE p.status = 'settled')::int AS settled
           FROM executions e JOIN payments p ON p.id = e.payment_id WHERE e.id = ANY($1)`,
        [ids],
      );
      expect(money).toEqual({ charged: 0, settled: 0 });
    } finally {
      await silent.stop();
    }
  }, 120_000);

  it('64 callbacks to a receiver that never answers: a webhook delivery to another host arrives within 5 s; the 64 wait their turn', async () => {
    const silent = await new JsonReceiver().start('/callback');
    silent.reply = () => SILENT;
    const hooks = await new JsonReceiver().start('/hooks');
    try {
      const attacker = newWallet();
      const attackerAgent = await register(fastAgent.url);
      const owner = newWallet();
      const victimAgent = await register(fastAgent.url, owner);
      const sub = await api.request('POST', '/api/v1/webhooks', {
        body: { agentId: victimAgent, url: hooks.url, events: ['execution.completed'] },
        headers: await walletHeaders(owner, victimAgent, 'POST /api/v1/webhooks', ++ts),
      });
      expect(sub.status).toBe(201);
      const ids: string[] = await Promise.all(
        Array.from({ length: 64 }, async (_, i) => {
          const res = await execute(attacker, attackerAgent, `cb ${i}`, { callbackUrl: silent.url });
          expect(res.status).toBe(200);
          return res.body.data.requestId;
        }),
      );
      await waitFor(
        async () =>
          silent.received.length >= 32 || (silent.received.length >= 2 && (await queued('webhooks', 'waiting')) === 0),
        'the worker taking the callbacks',
      );

      const started = Date.now();
      const res = await execute(newWallet(), victimAgent, 'event');
      expect(res.status).toBe(200);
      await waitFor(async () => hooks.received.length >= 1, 'the webhook delivery', DEADLINE_MS);
      expect(hooks.received[0].at - started).toBeLessThan(DEADLINE_MS);
      expect(hooks.received[0].body).toMatchObject({
        type: 'execution.completed',
        data: { requestId: res.body.data.requestId },
      });

      // Two callbacks are being sent; the other 62 wait: pending, and held in line (not due for the sweeper).
      expect(silent.received).toHaveLength(2);
      const rows: { status: string; inLine: boolean }[] = await ds.query(
        `SELECT status, coalesce(locked_until > now(), false) AS "inLine" FROM webhook_deliveries WHERE kind = 'callback' AND execution_id = ANY($1)`,
        [ids],
      );
      expect(rows).toHaveLength(64);
      expect(rows.filter((r) => r.status === 'sending')).toHaveLength(2);
      expect(rows.filter((r) => r.status === 'pending' && r.inLine)).toHaveLength(62);
      expect(await capped('webhooks')).toBeGreaterThanOrEqual(62);

      // The receiver goes away: each first attempt is made in its turn and fails; its retry is scheduled.
      await silent.stop();
      const attempts = async () =>
        ds.query(
          `SELECT attempt, status, count(*)::int AS n FROM webhook_deliveries WHERE kind = 'callback' AND execution_id = ANY($1) GROUP BY 1, 2 ORDER BY 1, 2`,
          [ids],
        );
      await waitFor(
        async () =>
          (await attempts()).find(
            (r: { attempt: number; status: string; n: number }) => r.attempt === 1 && r.status === 'failed',
          )?.n === 64,
        'the 64 first attempts failing',
        30_000,
      );
      expect(await attempts()).toEqual([
        { attempt: 1, status: 'failed', n: 64 },
        { attempt: 2, status: 'pending', n: 64 },
      ]);
    } finally {
      await silent.stop();
      await hooks.stop();
    }
  }, 120_000);
});
