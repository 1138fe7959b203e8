import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { startApiProcess } from '../support/api-process';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { withClients } from '../support/load';
import { seedCharge } from '../support/money';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { killQueuePrimary, startRedisCluster, TestRedisCluster } from '../support/redis-cluster';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const CLIENT_LIMIT = 6;
/** `FAULT_SCALE=<n>` multiplies the mixed load for a longer run by hand (README). */
const SCALE = Math.max(1, Number(process.env.FAULT_SCALE ?? 1));
const ASYNC_RUNS = 40 * SCALE;
const WITHDRAWALS = 20 * SCALE;
const CLIENTS = 50;

/**
 * Issue 16, many instances: two api processes and two worker processes on one Postgres and one
 * Redis. A client's rate limit holds across both apis; one payment header, or one idempotency key,
 * sent to both at once is charged once; under a mixed load (async executions, withdrawals, escrow
 * releases and webhook deliveries, requested through either api) every job runs once on one of
 * the workers; the invariants hold at the end.
 * Issue 37: the same on a Redis Cluster of 3 primaries and 3 replicas started here, where the
 * primary serving the executions queue is killed (kill -9) once half the async runs are accepted,
 * and its replica takes over: no job is lost (what the killed primary had not yet copied to its
 * replica is found again by the sweeper, which reads Postgres) and none runs twice.
 */
describe.each([
  ['one Redis', false],
  ['a Redis Cluster, a primary killed mid-load', true],
])('faults: two apis and two workers on one Postgres and %s (e2e)', (_redis, onCluster) => {
  let cluster: TestRedisCluster | undefined;
  let harness: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  const procs: RunningProcess[] = [];
  const apis: string[] = [];
  let agentId: string;

  const env = () => ({
    ...harness.env,
    LOG_LEVEL: 'warn',
    MAINTENANCE_INTERVAL_MS: '1000',
    WORKER_HEARTBEAT_MS: '200',
  });

  async function startApi2(): Promise<string> {
    const { url, process } = await startApiProcess(env());
    procs.push(process);
    return url;
  }

  async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    if (onCluster) cluster = await startRedisCluster(3);
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    // The harness gives the database and the Redis prefix (and registers the agent); the traffic goes to the processes.
    harness = await startApi({
      ...(cluster ? { REDIS_CLUSTER_NODES: cluster.urls.join(',') } : {}),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: String(CLIENT_LIMIT),
      ESCROW_HOLD_STANDARD_S: '2',
    });
    ds = harness.app.get(DataSource);
    const res = await registerAgent(harness, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    apis.push(await startApi2(), await startApi2());
    for (let i = 0; i < 2; i++) procs.push(startProcess(builtApp('worker'), env()));
    await waitFor(async () => (await fetch(`${apis[0]}/api/v1/health/worker`)).status === 200, 'a worker heartbeat');
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await harness.close();
    await agentServer.stop();
    await receiver.stop();
    await cluster?.stop();
  });

  const execute = async (
    base: string,
    payer = newWallet(),
    query = '',
    input: Record<string, unknown> = { text: 'hola' },
  ) => {
    const h = await x402Header(payer, { amount: PRICE, payTo: harness.config.platformWallet });
    return post(
      base,
      `/api/v1/execute${query}`,
      { targetAgentId: agentId, capabilityId: 'translate', input },
      { [h.name]: h.value },
    );
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
      // One runs; the other is refused, or (admitted once the run was recorded) answered as that run.
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((r) => r.body.data.requestId)).size).toBe(1);
      for (const r of results.filter((x) => x.status !== 200))
        expect([r.status, r.body.error.code]).toEqual([409, 'PAYMENT_REPLAYED']);
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM payments WHERE nonce = $1`, [h.nonce]);
      expect(n).toBe(1);
    }
  });

  it('one idempotency key sent to both apis at once runs and is charged once (its in-flight claim)', async () => {
    const payer = newWallet();
    const body = { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'one key, two apis' } };
    const sent = await Promise.all(
      apis.map(async (base) => {
        const h = await x402Header(payer, { amount: PRICE, payTo: harness.config.platformWallet });
        const res = await post(base, '/api/v1/execute', body, { [h.name]: h.value, 'Idempotency-Key': 'two-apis-1' });
        return { ...res, nonce: h.nonce };
      }),
    );
    expect(sent.map((r) => r.status)).toEqual([200, 200]);
    expect(sent[0].body.data.executionId).toBe(sent[1].body.data.executionId);
    expect(agentServer.calls.filter((c) => c.json.input?.text === 'one key, two apis')).toHaveLength(1);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM payments WHERE nonce = ANY($1)`, [
      sent.map((r) => r.nonce),
    ]);
    expect(n).toBe(1);
  });

  it(
    `mixed load through both apis: ${ASYNC_RUNS} async executions, ${WITHDRAWALS} withdrawals, their releases and webhook deliveries each run once; invariants hold`,
    async () => {
      // One agent, subscribed to its events, with earnings to withdraw while it earns more.
      const started = Date.now();
      const ownerWallet = newWallet();
      const owned = (
        await registerAgent(harness, ownerWallet, {
          endpoints: { execution: agentServer.url },
          capabilities: [capabilityPayload({ id: 'echo' })],
        })
      ).body.data.id;
      let ts = Date.now();
      const sub = await post(
        apis[0],
        '/api/v1/webhooks',
        {
          agentId: owned,
          url: receiver.url,
          events: ['execution.completed', 'escrow.released', 'withdrawal.completed'],
        },
        await walletHeaders(ownerWallet, owned, 'POST /api/v1/webhooks', ++ts),
      );
      expect(sub.status).toBe(201);
      await seedCharge(harness.app, { agentId: owned, agentFee: BigInt(WITHDRAWALS) * 1_100_000n, reputation: 90 });
      await ds.query(`UPDATE agents SET reputation_score = 50 WHERE id = $1`, [owned]); // Standard: its new earnings held 2 s

      // On the cluster: the executions queue's primary is killed once half the runs are accepted and 5 jobs wait there.
      const [prefix, queue] = [harness.config.queuePrefix, 'executions'];
      let acceptedSoFar = 0;
      const due = () => acceptedSoFar >= ASYNC_RUNS / 2;
      const killed = cluster && killQueuePrimary(cluster, { prefix, queue, due, minWaiting: 5 });

      // 50 clients at a time, alternating between the apis: the runs and the withdrawals interleaved.
      const runs = withClients(ASYNC_RUNS, CLIENTS, async (i) => {
        const h = await x402Header(newWallet(), { amount: PRICE, payTo: harness.config.platformWallet });
        const accepted = await post(
          apis[i % 2],
          '/api/v1/execute?async=true',
          // On the cluster the first 4 take 2 s each: the agent's 2 passes are held, and the others wait on the queue's primary.
          {
            targetAgentId: owned,
            capabilityId: 'echo',
            input: { text: `async ${i}`, ...(cluster && i < 4 && { mode: 'slow' }) },
          },
          { [h.name]: h.value },
        );
        acceptedSoFar++;
        return accepted;
      });
      const payouts = withClients(WITHDRAWALS, CLIENTS, async (i) =>
        post(
          apis[i % 2],
          '/api/v1/payments/withdraw',
          { agentId: owned, amount: '1.000000', destinationWallet: newWallet().address },
          await walletHeaders(ownerWallet, owned, 'POST /api/v1/payments/withdraw', ++ts),
        ),
      );
      const [accepted, requested] = await Promise.all([runs, payouts]);
      const failedOver = await killed;
      expect(accepted.map((r) => r.status)).toEqual(Array(ASYNC_RUNS).fill(202));
      expect(requested.filter((r) => r.status !== 201).map((r) => r.body.error)).toEqual([]);
      const ids: string[] = accepted.map((r) => r.body.data.jobId);
      const withdrawals: string[] = requested.map((r) => r.body.data.withdrawalId);

      const state = async () =>
        (
          await ds.query(
            `SELECT (SELECT count(*) FROM executions WHERE id = ANY($1) AND transaction_id IS NOT NULL)::int AS charged,
                  (SELECT count(*) FROM withdrawals WHERE id = ANY($2) AND status = 'completed')::int AS paid,
                  (SELECT count(*) FROM escrow_holds WHERE agent_id = $3 AND status = 'held')::int AS held,
                  (SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $4 AND status <> 'succeeded')::int AS undelivered,
                  (SELECT count(*) FROM outbox_events WHERE agent_id = $3 AND published_at IS NULL)::int AS unpublished`,
            [ids, withdrawals, owned, sub.body.data.webhookId],
          )
        )[0];
      let last: unknown;
      await waitFor(
        async () => {
          const s = (last = await state());
          return (
            s.charged === ASYNC_RUNS &&
            s.paid === WITHDRAWALS &&
            s.held === 0 &&
            s.undelivered === 0 &&
            s.unpublished === 0
          );
        },
        'every run charged, every withdrawal paid, every hold released and every event delivered',
        60_000 * SCALE,
      ).catch((err: Error) => Promise.reject(new Error(`${err.message}; last seen ${JSON.stringify(last)}`)));

      // Once each: one agent call per run, one charge per run, one completion posting per withdrawal, one delivery per event.
      const perId = new Map<string, number>();
      for (const c of agentServer.calls.filter((c) => ids.includes(c.json.requestId)))
        perId.set(c.json.requestId, (perId.get(c.json.requestId) ?? 0) + 1);
      expect([...perId.values()].every((n) => n === 1) && perId.size === ASYNC_RUNS).toBe(true);
      const [once] = await ds.query(
        `SELECT (SELECT count(*) FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = ANY($1))::int AS charges,
              (SELECT count(*) FROM ledger_transactions WHERE code = 'withdrawal.completed' AND ref_id = ANY($2))::int AS completions,
              (SELECT count(*) FROM escrow_holds WHERE agent_id = $3 AND status = 'released')::int AS releases,
              (SELECT count(*) FROM ledger_transactions l JOIN escrow_holds h ON l.ref_id = h.id WHERE h.agent_id = $3 AND l.code = 'escrow.released')::int AS release_postings,
              (SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $4)::int AS deliveries`,
        [ids, withdrawals, owned, sub.body.data.webhookId],
      );
      expect(once).toMatchObject({ charges: ASYNC_RUNS, completions: WITHDRAWALS, release_postings: once.releases });
      expect(once.releases).toBeGreaterThanOrEqual(ASYNC_RUNS);
      const eventIds = receiver.received.map((r) => (r.body as { id: string }).id);
      process.stdout.write(
        `many-instances mixed load: ${ASYNC_RUNS} async runs, ${WITHDRAWALS} withdrawals, ${once.releases} releases, ${once.deliveries} deliveries through 2 apis and 2 workers, each once, in ${Date.now() - started} ms${
          failedOver
            ? `; primary ${failedOver.port} killed with ${failedOver.waiting} jobs waiting on it, its replica serving ${failedOver.ms} ms later`
            : ''
        }\n`,
      );
      expect(new Set(eventIds).size).toBe(eventIds.length);
      expect(eventIds.length).toBe(once.deliveries);
      expect(once.deliveries).toBe(ASYNC_RUNS + WITHDRAWALS + once.releases);
      const report = await runInvariantChecks(ds.manager, [
        ...LEDGER_CHECKS,
        ...PAYMENT_CHECKS,
        ...CHAIN_CHECKS,
        ...DISPUTE_CHECKS,
      ]);
      expect(report.results.filter((r) => r.violations.length)).toEqual([]);
      if (cluster) {
        // Each queue's keys are under its own hash tag (one slot each), as the workers and producers used them.
        const streams = ['executions', 'money', 'webhooks'].map((q) => `{${prefix}:${q}}:${q}:events`);
        expect(await cluster.existing(streams)).toEqual(streams);
        // Both apis see every primary (their slot maps refreshed) and a live worker again after the failover.
        const ready = async (base: string) =>
          (await fetch(`${base}/api/v1/health/ready`)).status === 200 &&
          (await fetch(`${base}/api/v1/health/worker`)).status === 200;
        for (const base of apis) await waitFor(() => ready(base), `${base} ready after the failover`, 10_000);
      }
    },
    120_000 * SCALE,
  );
});
