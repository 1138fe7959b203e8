import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { matureSpend } from '../support/payer-spend';
import { JobProducer } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { JsonReceiver, Reply } from '../support/json-receiver';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
/** A peer that never answers (within the test): the attack's agents and callback ports. */
const SILENT: Reply = { status: 200, delayMs: 3_600_000 };
/** What another client waits at most here (the timing itself is measured by test/bench/fairness-bench.ts). */
const DEADLINE_MS = 5_000;
/** One run's agent fee (PRICE less the platform fee): here, one paid run from another wallet makes an owner funded. */
const FUNDED_MICRO = '10000';

/**
 * Issue 52: the worker starved for 0.90 USDC. The per-agent and per-host caps (issue 29) bound one
 * key, not one owner: 9 silent agents of one owner (9 registration fees) held all 16 run slots (a
 * fast run of another owner waited 28.5 s instead of 0.13 s), and 17 silent callback ports of one
 * payer's failed (free) runs held the webhooks queue's 32 (a webhook waited 8.0 s instead of
 * 0.12 s). Now one owner's runs, one payer's runs and one party's deliveries hold at most their
 * share (WORKER_PARTY_CONCURRENCY 4, WEBHOOK_PARTY_CONCURRENCY 8), and the parties with no paid
 * record share one pool (three shares): fresh wallets, however many, never hold the slots of a
 * party with a paid record. The worker as shipped (built bundle, default concurrency and timeouts).
 */
describe('abuse: one owner or payer only slows itself (e2e, the worker process)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess;
  let fastAgent: TestAgentServer;
  let ts = Date.now();

  beforeAll(async () => {
    fastAgent = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    worker = startProcess(builtApp('worker'), { ...api.env, WORKER_FUNDED_VOLUME_MICRO: FUNDED_MICRO });
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
    const body = { targetAgentId: agentId, capabilityId: 'translate', input: { text }, callbackUrl: opts.callbackUrl };
    return api.request('POST', `/api/v1/execute${opts.async ? '?async=true' : ''}`, {
      body,
      headers: { [h.name]: h.value },
    });
  };
  const waiting = async (queue: string): Promise<number> =>
    (await api.app.get(JobProducer).depths()).find((d) => d.queue === queue && d.state === 'waiting')?.count ?? 0;
  const statuses = async (ids: string[]): Promise<Record<string, number>> => {
    const rows: { status: string; n: number }[] = await ds.query(
      `SELECT status, count(*)::int AS n FROM executions WHERE id = ANY($1) GROUP BY status`,
      [ids],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  };
  const silentServers = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const r = await new JsonReceiver().start('/agent');
        r.reply = () => SILENT;
        return r;
      }),
    );
  const received = (servers: JsonReceiver[]) => servers.reduce((n, s) => n + s.received.length, 0);
  /** Async runs, `perAgent` on each agent, each paid by `payerOf(agent index)`; their ids. */
  const flood = (agents: string[], perAgent: number, payerOf: (i: number) => Wallet) =>
    Promise.all(
      agents.flatMap((agent, i) =>
        Array.from({ length: perAgent }, async (_, k) => {
          const res = await execute(payerOf(i), agent, `hold ${i}.${k}`, { async: true });
          expect(res.status).toBe(202);
          return res.body.data.jobId as string;
        }),
      ),
    );
  /** Another wallet's async run on `agentId`: completed within the deadline; how long it took. */
  const fastRun = async (agentId: string): Promise<number> => {
    const started = Date.now();
    const res = await execute(newWallet(), agentId, 'fast', { async: true });
    expect(res.status).toBe(202);
    await waitFor(
      async () => (await api.request('GET', res.body.data.statusUrl)).body.data.status === 'completed',
      'the fast run completing',
      DEADLINE_MS,
    );
    return Date.now() - started;
  };
  /** The silent agents go away: every run ends in its turn (fails), none charged. */
  const drain = async (servers: JsonReceiver[], ids: string[]) => {
    await Promise.all(servers.map((s) => s.stop()));
    await waitFor(async () => ((await statuses(ids)).pending ?? 0) === 0, 'the silent runs ending', 60_000);
    const [money] = await ds.query(
      `SELECT count(*) FILTER (WHERE transaction_id IS NOT NULL)::int AS charged FROM executions WHERE id = ANY($1)`,
      [ids],
    );
    expect(money).toEqual({ charged: 0 });
  };

  it("one owner's 9 silent agents, 4 runs each: another owner's run completes while they wait; the owner holds 4 run slots", async () => {
    const servers = await silentServers(9);
    try {
      const attacker = newWallet();
      const agents: string[] = [];
      for (const s of servers) agents.push(await register(s.url, attacker));
      const honest = await register(fastAgent.url);
      // Each agent's runs paid by a wallet of its own: the owner's share binds, not a payer's.
      const payers = agents.map(() => newWallet());
      const ids = await flood(agents, 4, (i) => payers[i]);
      // In place once the worker has taken what it will: all 16 slots (before), or the owner's share and every other run in line.
      await waitFor(
        async () => received(servers) >= 16 || (received(servers) >= 4 && (await waiting('executions')) === 0),
        'the worker taking the silent runs',
      );

      const took = await fastRun(honest);
      expect(took).toBeLessThan(DEADLINE_MS);
      // Meanwhile the silent runs still hold their slots: 4 calls (the owner's share) got through, the rest wait their turn.
      expect(received(servers)).toBe(4);
      expect(await statuses(ids)).toEqual({ pending: 36 });
      await drain(servers, ids);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 120_000);

  it('9 silent agents of 9 fresh owners and payers: they share the pool (12 runs); an owner with a paid record still runs at once', async () => {
    const servers = await silentServers(9);
    try {
      const funded = newWallet();
      const honest = await register(fastAgent.url, funded);
      // A paid record: another wallet's charged run on the owner's agent (synchronous: the worker never saw this owner).
      const client = newWallet();
      expect((await execute(client, honest, 'paid')).status).toBe(200);
      // A record counts once its charges can no longer be disputed.
      expect((await matureSpend(api, [client])).counted).toBeGreaterThanOrEqual(1);
      const agents: string[] = [];
      for (const s of servers) agents.push(await register(s.url));
      const payers = agents.map(() => newWallet());
      const ids = await flood(agents, 4, (i) => payers[i]);
      await waitFor(
        async () => received(servers) >= 16 || (received(servers) >= 12 && (await waiting('executions')) === 0),
        'the worker taking the silent runs',
      );

      const took = await fastRun(honest);
      expect(took).toBeLessThan(DEADLINE_MS);
      // The fresh owners together hold the pool's 12 slots, whatever their number.
      expect(received(servers)).toBe(12);
      expect(await statuses(ids)).toEqual({ pending: 36 });
      await drain(servers, ids);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 120_000);

  it("17 silent callback ports fed by one payer's failed runs: a webhook to another host arrives while they are pending", async () => {
    const ports = await silentServers(17);
    const failing = await new JsonReceiver().start('/agent');
    failing.status = 500;
    const hooks = await new JsonReceiver().start('/hooks');
    try {
      const attacker = newWallet();
      // One failing agent per port: each fails 3 runs (refunded, free), each run's callback goes to its port.
      const failingAgents: string[] = [];
      for (let i = 0; i < ports.length; i++) failingAgents.push(await register(failing.url));
      const owner = newWallet();
      const victim = await register(fastAgent.url, owner);
      const sub = await api.request('POST', '/api/v1/webhooks', {
        body: { agentId: victim, url: hooks.url, events: ['execution.completed'] },
        headers: await walletHeaders(owner, victim, 'POST /api/v1/webhooks', ++ts),
      });
      expect(sub.status).toBe(201);
      await Promise.all(
        failingAgents.flatMap((agent, i) =>
          [0, 1, 2].map(async (k) => {
            const res = await execute(attacker, agent, `cb ${i}.${k}`, { callbackUrl: ports[i].url });
            expect(res.body.error?.code).toBe('EXECUTION_FAILED');
          }),
        ),
      );
      const callbacks = async () =>
        (
          await ds.query(
            `SELECT count(*) FILTER (WHERE d.status IN ('pending', 'sending'))::int AS open, count(*)::int AS n
               FROM webhook_deliveries d JOIN executions e ON e.id = d.execution_id
              WHERE d.kind = 'callback' AND e.payer = $1`,
            [attacker.address.toLowerCase()],
          )
        )[0] as { open: number; n: number };
      expect(await callbacks()).toEqual({ open: 51, n: 51 });
      await waitFor(
        async () => received(ports) >= 32 || (received(ports) >= 8 && (await waiting('webhooks')) === 0),
        'the worker taking the callbacks',
      );

      const started = Date.now();
      const res = await execute(newWallet(), victim, 'event');
      expect(res.status).toBe(200);
      await waitFor(async () => hooks.received.length >= 1, 'the webhook delivery', DEADLINE_MS);
      expect(hooks.received[0].at - started).toBeLessThan(DEADLINE_MS);
      expect(hooks.received[0].body).toMatchObject({
        type: 'execution.completed',
        data: { requestId: res.body.data.requestId },
      });
      // Meanwhile the payer's callbacks hold 8 delivery slots (its share); the other 43 wait their turn.
      expect(received(ports)).toBe(8);
      expect(await callbacks()).toEqual({ open: 51, n: 51 });
    } finally {
      await Promise.all(ports.map((p) => p.stop()));
      await failing.stop();
      await hooks.stop();
    }
  }, 120_000);
});
