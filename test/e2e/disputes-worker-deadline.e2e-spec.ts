import { Queue } from 'bullmq';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { PLATFORM_FEE } from '@app/payments';
import { jobId, QUEUES, redisConnectionOptions } from '@app/queues';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness, startApi } from '../support/api-harness';
import { agentPayload, capabilityPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';
import { paidExecute as paidExecuteAs, PaidCall } from '../support/disputes';
import {
  AGENT_FEE,
  PRICE,
  disputeTrail,
  invariantViolations,
  txStatus,
  refundStatus,
  expectResolvedByTimeout,
  redisLosesEverything,
} from '../support/disputes-worker';

describe('disputes: the response deadline resolves unanswered disputes through the worker (e2e)', () => {
  const WINDOW_S = 2;
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let worker: RunningProcess | undefined;
  let payments: Queue;
  let maintenance: Queue;
  let ts = Date.now();

  /** Starts a worker and waits for its heartbeat: it has booted, and its boot sweep has begun. */
  const startWorker = async (env: Record<string, string>) => {
    worker = startProcess(builtApp('worker'), { ...api.env, ...env });
    await waitFor(
      async () => (await api.request('GET', '/api/v1/health/worker')).status === 200,
      'the worker heartbeat',
    );
  };
  const stopWorker = async () => {
    if (!worker) return;
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    worker = undefined;
  };

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    // No sweep but the boot tick (a 10-minute interval) until the Redis-loss tests start their own worker.
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      DISPUTE_RESPONSE_WINDOW_S: String(WINDOW_S),
      MAINTENANCE_INTERVAL_MS: '600000',
      WORKER_HEARTBEAT_MS: '200',
      // The spec's deltas for every paying wallet (the weighted model has its tests in reputation-sybil).
      REPUTATION_MODEL: 'spec',
    });
    ds = api.app.get(DataSource);
    const connection = redisConnectionOptions(api.config.redisUrl);
    payments = new Queue(QUEUES.money, { connection, prefix: api.config.queuePrefix });
    maintenance = new Queue(QUEUES.maintenance, { connection, prefix: api.config.queuePrefix });
    await Promise.all([payments.waitUntilReady(), maintenance.waitUntilReady()]);
  });
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await payments?.close();
    await maintenance?.close();
    await api?.close();
    await translator?.stop();
  });

  async function agent(): Promise<{ id: string; wallet: Wallet }> {
    const wallet = newWallet();
    const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(wallet, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: PRICE })],
      }),
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, wallet };
  }

  const paidExecute = (agentId: string) => paidExecuteAs(api, agentId, newWallet(), PLATFORM_FEE + AGENT_FEE);

  async function file(call: PaidCall, headers: Record<string, string> = { [call.payment.name]: call.payment.value }) {
    const res = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId: call.transactionId, reason: 'No translation came back' },
      headers,
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.disputeId as string, respondBy: new Date(res.body.data.respondBy) };
  }

  const getDispute = async (id: string) => (await api.request('GET', `/api/v1/disputes/${id}`)).body.data;
  const timeoutJobs = async (
    disputeId: string,
    states: ('completed' | 'failed' | 'delayed' | 'waiting' | 'active' | 'prioritized')[],
  ) => (await payments.getJobs(states)).filter((j) => j.name === 'dispute.timeout' && j.data.disputeId === disputeId);

  /** The worker's own proof that its sweeper ran: each tick enqueues `auth-messages.prune` with the tick's slot in the id. */
  async function sweeperTicked(pastSlot: number): Promise<void> {
    await waitFor(async () => {
      const jobs = await maintenance.getJobs(['completed']);
      return jobs.some((j) => Number(/-s(\d+)$/.exec(j.id ?? '')?.[1] ?? -1) > pastSlot);
    }, `a sweep after slot ${pastSlot}`);
  }

  it('the delayed job alone (no periodic sweep) resolves an unanswered dispute client_wins at its deadline; an answered one stays responded', async () => {
    await startWorker({});
    const answeredAgent = await agent();
    const silentAgent = await agent();
    const answeredCall = await paidExecute(answeredAgent.id);
    const silentCall = await paidExecute(silentAgent.id);

    // Filed first, so its deadline comes first; answered by the agent's wallet right away.
    const answered = await file(answeredCall);
    const reply = await api.request('POST', `/api/v1/disputes/${answered.id}/respond`, {
      body: { response: 'The translation was delivered', evidence: 'output hash in the platform evidence' },
      headers: await walletHeaders(
        answeredAgent.wallet,
        answeredAgent.id,
        `POST /api/v1/disputes/${answered.id}/respond`,
        ++ts,
      ),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      disputeId: answered.id,
      status: 'responded',
      agentResponse: 'The translation was delivered',
    });
    // The other payer proves it with a wallet signature over the transaction id.
    const silent = await file(silentCall, {
      'X-Client-Wallet': silentCall.payer.address,
      'X-Client-Signature': await signAuth(silentCall.payer, silentCall.transactionId),
    });
    expect(silent.respondBy.getTime() - Date.now()).toBeLessThanOrEqual(WINDOW_S * 1000);
    expect((await getDispute(silent.id)).status).toBe('pending');
    expect((await timeoutJobs(silent.id, ['delayed'])).map((j) => j.id)).toEqual([jobId('dispute.timeout', silent.id)]);

    // The answered dispute's deadline job runs and does nothing.
    const [answeredJob] = await waitFor(async () => {
      const jobs = await timeoutJobs(answered.id, ['completed']);
      return jobs.length ? jobs : undefined;
    }, "the answered dispute's deadline job");
    expect(answeredJob.id).toBe(jobId('dispute.timeout', answered.id));
    expect(answeredJob.returnvalue).toBe(false);

    // The unanswered one resolves by itself, and its refund is paid by the worker.
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${silent.id.slice(4)}`)) === 'completed',
      'the timed-out dispute refunded',
      20_000,
    );
    const [silentJob] = await timeoutJobs(silent.id, ['completed']);
    expect(silentJob).toMatchObject({ id: jobId('dispute.timeout', silent.id), returnvalue: true });
    await expectResolvedByTimeout(api, silent.id, silentCall, silentAgent.id);

    // The answered one: still responded, its money still frozen, no refund, no outcome on the agent's reputation.
    expect(Date.now()).toBeGreaterThan(answered.respondBy.getTime());
    expect(await getDispute(answered.id)).toMatchObject({
      status: 'responded',
      resolution: null,
      resolvedAt: null,
      agentResponse: 'The translation was delivered',
    });
    const open = await disputeTrail(ds, answered.id);
    expect(open.reputation).toEqual([{ type: 'dispute.filed', delta: -5 }]);
    expect(open.refunds).toEqual([]);
    expect(open.resolvedEvents).toEqual([]);
    expect(open.postings.map((p) => p.code)).toEqual(['dispute.frozen']);
    expect((await api.request('GET', `/api/v1/reputation/${answeredAgent.id}`)).body.data).toMatchObject({
      score: 46,
      breakdown: { disputesWon: 0, disputesLost: 0 },
    });
    expect(await txStatus(ds, answeredCall.transactionId)).toBe('disputed');
    expect((await api.request('GET', `/api/v1/payments/balance/${answeredAgent.id}`)).body.data).toMatchObject({
      totalDisputed: '1.140000',
      available: '0.000000',
      pending: '0.000000',
    });
    // Responding again after the window is refused; the admin can still decide it.
    const late = await api.request('POST', `/api/v1/disputes/${answered.id}/respond`, {
      body: { response: 'again' },
      headers: await walletHeaders(
        answeredAgent.wallet,
        answeredAgent.id,
        `POST /api/v1/disputes/${answered.id}/respond`,
        ++ts,
      ),
    });
    expect(late.status).toBe(409);
    expect(await invariantViolations(ds)).toEqual([]);
    await stopWorker();
  });

  it('Redis loses the delayed job while no worker runs: the sweeper of the next worker resolves the dispute after its window, exactly once', async () => {
    const a = await agent();
    const call = await paidExecute(a.id);
    const d = await file(call);
    expect((await timeoutJobs(d.id, ['delayed'])).map((j) => j.id)).toEqual([jobId('dispute.timeout', d.id)]);
    await redisLosesEverything(api, { workerRunning: false });
    expect(await payments.getJob(jobId('dispute.timeout', d.id))).toBeUndefined();
    expect((await getDispute(d.id)).status).toBe('pending');

    const intervalMs = 300;
    await startWorker({ MAINTENANCE_INTERVAL_MS: String(intervalMs) });
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${d.id.slice(4)}`)) === 'completed',
      'the dispute resolved by the sweeper and refunded',
      20_000,
    );
    await expectResolvedByTimeout(api, d.id, call, a.id);
    // It was the sweeper's job (its id carries the sweep slot), not the lost delayed one.
    const ran = await timeoutJobs(d.id, ['completed']);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.every((j) => /^dispute_timeout-dsp_[A-Za-z0-9_-]+-s\d+$/.test(j.id!))).toBe(true);
    expect(ran.filter((j) => j.returnvalue === true)).toHaveLength(1);

    // More sweeps come and go, and a stale copy of the lost delayed job shows up (Redis restored from an old snapshot): nothing changes.
    await sweeperTicked(Math.floor(Date.now() / intervalMs) + 1);
    const stale = await payments.add('dispute.timeout', { disputeId: d.id }, { jobId: jobId('dispute.timeout', d.id) });
    await waitFor(async () => (await stale.getState()) === 'completed', 'the stale deadline job');
    expect((await payments.getJob(stale.id!))?.returnvalue).toBe(false);
    await waitFor(
      async () => (await timeoutJobs(d.id, ['waiting', 'active', 'delayed', 'prioritized'])).length === 0,
      'no deadline job left for the dispute',
    );
    expect((await timeoutJobs(d.id, ['completed'])).filter((j) => j.returnvalue === true)).toHaveLength(1);
    await expectResolvedByTimeout(api, d.id, call, a.id);
    expect(await invariantViolations(ds)).toEqual([]);
  });

  it('Redis loses every key while the worker runs: the running sweeper still resolves the dispute after its window, exactly once', async () => {
    const intervalMs = 300;
    if (!worker) await startWorker({ MAINTENANCE_INTERVAL_MS: String(intervalMs) }); // else the sweeping worker of the previous test keeps running
    const a = await agent();
    const call = await paidExecute(a.id);
    const d = await file(call);
    await redisLosesEverything(api, { workerRunning: true });
    expect(Date.now()).toBeLessThan(d.respondBy.getTime()); // lost before the window closed: only a sweep can resolve it
    expect(await payments.getJob(jobId('dispute.timeout', d.id))).toBeUndefined();

    await waitFor(
      async () => (await refundStatus(ds, `rfd_${d.id.slice(4)}`)) === 'completed',
      'the dispute resolved by the sweeper and refunded',
      20_000,
    );
    await expectResolvedByTimeout(api, d.id, call, a.id);
    await sweeperTicked(Math.floor(Date.now() / intervalMs) + 1);
    await waitFor(
      async () => (await timeoutJobs(d.id, ['waiting', 'active', 'delayed', 'prioritized'])).length === 0,
      'no deadline job left for the dispute',
    );
    const ran = await timeoutJobs(d.id, ['completed']);
    expect(ran.every((j) => /-s\d+$/.test(j.id!))).toBe(true);
    expect(ran.filter((j) => j.returnvalue === true)).toHaveLength(1);
    await expectResolvedByTimeout(api, d.id, call, a.id);
    expect(await invariantViolations(ds)).toEqual([]);
    await stopWorker();
  });
});
