import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, PaidCall, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { PrivateRedis, startPrivateRedis } from '../support/redis-server';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const SWEEP_MS = 1_000;
const PRICE = 11_000n;
/** Executions, withdrawals and refunds (each refund a disputed execution, filed and resolved): 200 requests, plus the releases and deliveries they set in motion. */
const COUNTS = { sync: 60, async: 40, withdrawals: 40, refunds: 20 };
/** Async runs the worker is inside (its execution concurrency) when Redis restarts mid-job. */
const IN_FLIGHT = 16;

/**
 * G4: Redis restarted without persistence while 200 operations are in flight: sync and async
 * executions, escrow releases due, withdrawals, dispute refunds, webhook deliveries. Everything
 * Redis held (waiting, delayed and active jobs) is gone; the worker's sweeper, which reads Postgres,
 * finishes all of it within two sweep intervals of Redis coming back, and nothing is done twice.
 * Two moments: before the worker has run any of it (it starts after the restart), and while the
 * worker is mid-job (16 async runs inside their 2-second agent calls, the rest waiting in Redis).
 */
describe.each([
  ['before the worker has run any of it', false],
  ['while the worker is mid-job', true],
])('faults: Redis restarted without persistence during mixed operations, %s (e2e)', (_moment, midJob) => {
  let redis: PrivateRedis;
  let port: number;
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
    redis = await startPrivateRedis({ tcpPort: port });
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startApi({
      REDIS_URL: redis.url!,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '1000000',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
      ESCROW_HOLD_STANDARD_S: '2',
      MAINTENANCE_INTERVAL_MS: String(SWEEP_MS),
      WORKER_HEARTBEAT_MS: '200',
      ENQUEUE_TIMEOUT_MS: '200',
    });
    ds = api.app.get(DataSource);
  }, 60_000);
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await api.close();
    await redis.stop();
    await agentServer.stop();
    await receiver.stop();
  });

  it(`${COUNTS.sync + COUNTS.async + COUNTS.withdrawals + 3 * COUNTS.refunds} operations and what they set in motion complete once after Redis lost everything`, async () => {
    // A Standard agent (its earnings held 2 s), subscribed to its events; a second agent with money to withdraw.
    const wallet = newWallet();
    const agentId = (
      await registerAgent(api, wallet, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    await ds.query(`UPDATE agents SET reputation_score = 50 WHERE id = $1`, [agentId]);
    let ts = Date.now();
    const sub = await api.request('POST', '/api/v1/webhooks', {
      body: {
        agentId,
        url: receiver.url,
        events: ['execution.completed', 'escrow.released', 'withdrawal.completed', 'dispute.resolved'],
      },
      headers: await walletHeaders(wallet, agentId, 'POST /api/v1/webhooks', ++ts),
    });
    expect(sub.status).toBe(201);
    const richWallet = newWallet();
    const rich = (await registerAgent(api, richWallet)).body.data.id;
    await seedCharge(api.app, { agentId: rich, agentFee: BigInt(COUNTS.withdrawals) * 1_100_000n, reputation: 90 });
    const startWorker = () => startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn' });
    if (midJob) {
      worker = startWorker();
      await waitFor(
        async () => (await api.request('GET', '/api/v1/health/worker')).status === 200 || undefined,
        'a worker heartbeat',
        30_000,
      );
    }

    // Work that will be in Redis (delayed releases, queued async runs, withdrawals, refunds) when it restarts.
    const sync: PaidCall[] = [];
    for (let i = 0; i < COUNTS.sync; i++)
      sync.push(await paidExecute(api, agentId, newWallet(), PRICE, { text: `sync ${i}` }));
    const withdrawals: string[] = [];
    for (let i = 0; i < COUNTS.withdrawals; i++) {
      const res = await api.request('POST', '/api/v1/payments/withdraw', {
        body: { agentId: rich, amount: '1.000000', destinationWallet: newWallet().address },
        headers: await walletHeaders(richWallet, rich, 'POST /api/v1/payments/withdraw', ++ts),
      });
      expect(res.status).toBe(201);
      withdrawals.push(res.body.data.withdrawalId);
    }
    // Refunds: a third agent's charges disputed and lost by it (its score falls with every one; the first agent's runs must not).
    const disputed = (
      await registerAgent(api, newWallet(), {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    const disputes: string[] = [];
    const toDispute: PaidCall[] = [];
    for (let i = 0; i < COUNTS.refunds; i++)
      toDispute.push(await paidExecute(api, disputed, newWallet(), PRICE, { text: `disputed ${i}` }));
    for (const call of toDispute) {
      const d = (await fileDispute(api, call)).body.data.disputeId;
      expect((await resolveDispute(api, d, 'client_wins')).status).toBe(200);
      disputes.push(d);
    }

    // Async runs last, so that mid-job the restart finds the first ones inside their agent calls.
    const asyncIds: string[] = [];
    for (let i = 0; i < COUNTS.async; i++) {
      const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
      // Mid-job: the first runs fill the worker's 16 execution slots with 2-second agent calls.
      const input = midJob && i < IN_FLIGHT ? { text: `async ${i}`, mode: 'slow' } : { text: `async ${i}` };
      const res = await api.request('POST', '/api/v1/execute?async=true', {
        body: { targetAgentId: agentId, capabilityId: 'translate', input },
        headers: { [h.name]: h.value },
      });
      expect(res.status).toBe(202);
      asyncIds.push(res.body.data.jobId);
    }
    // Redis loses everything: stopped and started again empty, before the worker has run any of it,
    // or while it has runs inside their agent calls (and, in Redis, the rest of the work).
    if (midJob) {
      const slowCalls = () =>
        agentServer.calls.filter((c) => (c.json.input as { mode?: string })?.mode === 'slow').length;
      await waitFor(
        async () => slowCalls() >= IN_FLIGHT || undefined,
        'the worker to be inside its slow agent calls',
        30_000,
      );
    }
    const inFlight = midJob
      ? (
          await ds.query(
            `SELECT count(*)::int AS n FROM executions WHERE id = ANY($1) AND status = 'pending' AND locked_until > now()`,
            [asyncIds],
          )
        )[0].n
      : 0;
    await redis.stop();
    redis = await startPrivateRedis({ tcpPort: port });
    const back = Date.now();
    // Measured from the moment a worker runs: the one started now must boot first (a few seconds on a
    // busy two-core machine, and growing with what the worker loads), which says nothing of recovery.
    let up = back;
    if (!midJob) {
      worker = startWorker();
      up = await waitFor(
        async () => ((await api.request('GET', '/api/v1/health/worker')).status === 200 ? Date.now() : undefined),
        'the new worker heartbeat',
        30_000,
      );
    }

    const pending = async () =>
      (
        await ds.query(
          `SELECT (SELECT count(*) FROM executions WHERE id = ANY($1) AND transaction_id IS NULL)::int AS runs,
                  (SELECT count(*) FROM escrow_holds WHERE agent_id = $2 AND status = 'held')::int AS holds,
                  (SELECT count(*) FROM withdrawals WHERE id = ANY($3) AND status <> 'completed')::int AS withdrawals,
                  (SELECT count(*) FROM refunds WHERE id = ANY($4) AND status <> 'completed')::int AS refunds,
                  (SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $5 AND status <> 'succeeded')::int AS deliveries,
                  (SELECT count(*) FROM outbox_events WHERE agent_id = $2 AND published_at IS NULL)::int AS unpublished`,
          [asyncIds, agentId, withdrawals, disputes.map((d) => `rfd_${d.slice(4)}`), sub.body.data.webhookId],
        )
      )[0];
    const done = await waitFor(
      async () => {
        const p = await pending();
        return Object.values(p).every((n) => n === 0) ? Date.now() : undefined;
      },
      'everything to complete',
      60_000,
    ).catch(async (err) => {
      const runs = await ds.query(
        `SELECT status, agent_error, count(*)::int AS n FROM executions WHERE id = ANY($1) GROUP BY 1, 2`,
        [asyncIds],
      );
      throw new Error(
        `${(err as Error).message}: still pending ${JSON.stringify(await pending())}; async runs ${JSON.stringify(runs)}\n${worker?.output().slice(-3000)}`,
      );
    });
    process.stdout.write(
      `redis-restart fault test (${midJob ? `mid-job, ${inFlight} runs inside agent calls` : 'worker started after'}): everything completed ${done - back} ms after Redis came back empty${midJob ? '' : `, ${done - up} ms after the new worker's first heartbeat (boot ${up - back} ms)`} (sweep interval ${SWEEP_MS} ms)\n`,
    );
    // Two sweep intervals and the work itself, from the moment a worker runs.
    expect(done - up).toBeLessThan(2 * SWEEP_MS + 5_000);

    // Nothing twice: one charge per execution, one run per async execution, one completion per
    // payout, each event delivered once.
    const [dupes] = await ds.query(
      `SELECT (SELECT count(*) FROM (SELECT e.id FROM executions e JOIN transactions t ON t.id = e.transaction_id WHERE e.agent_id = $1 GROUP BY e.id HAVING count(*) > 1) x)::int AS charges,
              (SELECT count(*) FROM transactions WHERE providing_agent_id = $1)::int AS transactions`,
      [agentId],
    );
    expect(dupes).toEqual({ charges: 0, transactions: COUNTS.sync + COUNTS.async });
    const runs = new Map<string, number>();
    for (const c of agentServer.calls) runs.set(c.json.requestId, (runs.get(c.json.requestId) ?? 0) + 1);
    expect(asyncIds.filter((id) => runs.get(id) !== 1)).toEqual([]);
    const eventIds = receiver.received.map((r) => (r.body as { id: string }).id);
    expect(new Set(eventIds).size).toBe(eventIds.length);
    const [{ expected }] = await ds.query(
      `SELECT count(*)::int AS expected FROM webhook_deliveries WHERE subscription_id = $1`,
      [sub.body.data.webhookId],
    );
    expect(eventIds.length).toBe(expected);
    const report = await runInvariantChecks(ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...CHAIN_CHECKS,
      ...DISPUTE_CHECKS,
    ]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  }, 240_000);
});
