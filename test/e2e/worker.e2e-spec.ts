import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { TestAgentServer } from '../support/agent-server';
import { x402Header } from '../support/x402';
import { JsonReceiver } from '../support/json-receiver';
import { redisConnectionOptions, jobId, QUEUES } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { EscrowService, RELEASE_BUCKET_MS } from '@app/payments';
import { newWallet, walletHeaders } from '../support/wallets';

/** The worker as its own process: boots, reports health, drains a queue, shuts down gracefully. */
describe('worker process (e2e)', () => {
  let api: ApiHarness;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    api = await startApi({ WORKER_HEARTBEAT_MS: '200', MAINTENANCE_INTERVAL_MS: '600000' });
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await api.close();
  });

  const insertMessage = (key: string, expiresAt: Date) =>
    withClient(api.databaseUrl, (c) =>
      c.query(`INSERT INTO used_auth_messages (message_key, agent_id, expires_at) VALUES ($1, gen_random_uuid(), $2)`, [
        key,
        expiresAt,
      ]),
    );
  const messageKeys = () =>
    withClient(api.databaseUrl, async (c) =>
      (await c.query('SELECT message_key FROM used_auth_messages ORDER BY 1')).rows.map((r) => r.message_key),
    );

  it('reports no worker before it starts', async () => {
    const res = await api.request('GET', '/api/v1/health/worker');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('boots, shows healthy, drains the maintenance queue, and exits cleanly on SIGTERM', async () => {
    await insertMessage('expired-1', new Date(Date.now() - 60_000));
    await insertMessage('fresh-1', new Date(Date.now() + 600_000));
    worker = startProcess(builtApp('worker'), api.env);

    const health = await waitFor(async () => {
      const res = await api.request('GET', '/api/v1/health/worker');
      return res.status === 200 ? res : undefined;
    }, 'worker heartbeat');
    expect(health.body.data.details.worker).toMatchObject({
      status: 'up',
      queues: ['maintenance', 'money', 'executions', 'webhooks'],
    });

    // The boot tick enqueues a prune; the processor deletes only expired messages.
    await waitFor(async () => !(await messageKeys()).includes('expired-1'), 'boot prune');
    expect(await messageKeys()).toEqual(['fresh-1']);

    // A job enqueued by another producer is drained too.
    await insertMessage('expired-2', new Date(Date.now() - 1_000));
    const queue = new Queue('maintenance', {
      connection: redisConnectionOptions(api.config.redisUrl),
      prefix: api.config.queuePrefix,
    });
    try {
      const job = await queue.add(
        'auth-messages.prune',
        { requestedAt: new Date().toISOString() },
        { jobId: jobId('auth-messages.prune', 'e2e') },
      );
      await waitFor(async () => (await job.getState()) === 'completed', 'job completion');
      expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ deleted: 1 });
      expect(await messageKeys()).toEqual(['fresh-1']);
    } finally {
      await queue.close();
    }

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const after = await api.request('GET', '/api/v1/health/worker');
    expect(after.status).toBe(503);
  });

  it('releases held escrow through one delayed job per time bucket (no sweeper here), each hold once', async () => {
    const escrow = api.app.get(EscrowService);
    const agentIds = [
      (await registerAgent(api, newWallet())).body.data.id as string,
      (await registerAgent(api, newWallet())).body.data.id as string,
    ];
    const holds = [];
    for (const agentId of agentIds) {
      const { hold } = await seedCharge(api.app, { agentId, agentFee: 1_000_000n, reputation: 50 });
      // Due in 1.5 s instead of the Standard tier's day.
      const releaseAt = new Date(Date.now() + 1_500);
      await withClient(api.databaseUrl, (c) =>
        c.query(`UPDATE escrow_holds SET release_at = $2 WHERE id = $1`, [hold.id, releaseAt]),
      );
      holds.push({ ...hold, releaseAt });
    }
    for (const hold of holds) await escrow.scheduleRelease(hold);
    await escrow.scheduleRelease(holds[0]); // asked again: nothing more is queued

    const queue = new Queue(QUEUES.money, {
      connection: redisConnectionOptions(api.config.redisUrl),
      prefix: api.config.queuePrefix,
    });
    try {
      const buckets = [...new Set(holds.map((h) => Math.ceil(h.releaseAt.getTime() / RELEASE_BUCKET_MS)))];
      const jobs = (await queue.getJobs(['delayed', 'waiting'])).filter((j) => j.name === 'escrow.release-due');
      expect(jobs.map((j) => j.id).sort()).toEqual(buckets.map((b) => jobId('escrow.release-due', b)).sort());
      expect(jobs.every((j) => j.opts.delay! > 0 && j.opts.delay! <= 1_500 + RELEASE_BUCKET_MS)).toBe(true);
    } finally {
      await queue.close();
    }

    worker = startProcess(builtApp('worker'), api.env);
    const balance = async (agentId: string) =>
      (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;
    for (const agentId of agentIds) {
      await waitFor(async () => (await balance(agentId)).available === '0.950000', 'escrow released by the bucket job');
      expect(await balance(agentId)).toMatchObject({ pending: '0.000000', escrow: { pendingCount: 0 } });
    }
    const events = await withClient(api.databaseUrl, (c) =>
      c.query(
        `SELECT agent_id, count(*)::int AS n FROM outbox_events WHERE type = 'escrow.released' AND agent_id = ANY($1) GROUP BY agent_id`,
        [agentIds],
      ),
    );
    expect(events.rows.map((r) => r.n)).toEqual([1, 1]);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});

describe('configuration is validated at start-up (e2e)', () => {
  it.each([
    ['api', { PORT: 'eighty' }, /PORT must be an integer/],
    ['api', { SETTLEMENT_MODE: 'evm' }, /EVM_RPC_URL is required when SETTLEMENT_MODE=evm/],
    ['worker', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres:/],
    ['worker', { PAYMENT_NETWORKS: 'base,solana' }, /PAYMENT_NETWORKS must be a comma list/],
    ['ops', { NODE_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: 'true' }, /cannot be on when NODE_ENV=production/],
  ] as const)('%s stops with a clear message for %j', async (app, env, message) => {
    const proc = startProcess(builtApp(app), { LOG_LEVEL: 'silent', ...env }, app === 'ops' ? ['migrate'] : []);
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/Invalid configuration/);
    expect(proc.output()).toMatch(message);
  });
});

describe('worker process: withdrawals and the sweeper (e2e)', () => {
  let api: ApiHarness;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    api = await startApi({ MAINTENANCE_INTERVAL_MS: '500', WORKER_HEARTBEAT_MS: '200', ESCROW_HOLD_STANDARD_S: '1' });
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await api.close();
  });

  async function fundedAgent(earnings: bigint) {
    const wallet = newWallet();
    const res = await registerAgent(api, wallet);
    expect(res.status).toBe(201);
    // the smallest fee whose 95% covers `earnings`
    await seedCharge(api.app, { agentId: res.body.data.id, agentFee: (earnings * 100n + 94n) / 95n });
    return { id: res.body.data.id as string, wallet };
  }
  const status = async (id: string) =>
    (await api.request('GET', `/api/v1/payments/withdrawal/${id}`)).body.data.status as string;

  it('processes a requested withdrawal to completed', async () => {
    worker = startProcess(builtApp('worker'), api.env);
    const a = await fundedAgent(5_000_000n);
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount: '5', destinationWallet: a.wallet.address },
      headers: await walletHeaders(a.wallet, a.id, 'POST /api/v1/payments/withdraw'),
    });
    expect(res.status).toBe(201);
    await waitFor(
      async () => (await status(res.body.data.withdrawalId)) === 'completed',
      'withdrawal completed by the worker',
    );
    const w = (await api.request('GET', `/api/v1/payments/withdrawal/${res.body.data.withdrawalId}`)).body.data;
    expect(w).toMatchObject({ status: 'completed', net_amount: '4.900000', tx_hash: expect.stringMatching(/^0x/) });
  });

  it('releases a Standard-tier escrow after its hold (bucket job or sweeper), once', async () => {
    const wallet = newWallet();
    const agentId = (await registerAgent(api, wallet)).body.data.id as string;
    const { hold } = await seedCharge(api.app, { agentId, agentFee: 1_000_000n, reputation: 50 });
    expect(hold.status).toBe('held');
    await api.app.get(EscrowService).scheduleRelease(hold);
    const balance = async () => (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;
    expect((await balance()).pending).toBe('0.950000');
    await waitFor(async () => (await balance()).available === '0.950000', 'escrow released by the worker');
    expect(await balance()).toMatchObject({ pending: '0.000000', escrow: { pendingCount: 0 } });
    const events = await withClient(api.databaseUrl, (c) =>
      c.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'escrow.released' AND agent_id = $1`, [
        agentId,
      ]),
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('completes a withdrawal whose job Redis lost, through the sweeper', async () => {
    worker!.child.kill('SIGKILL');
    await worker!.exited;
    const a = await fundedAgent(2_000_000n);
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount: '2', destinationWallet: a.wallet.address },
      headers: await walletHeaders(a.wallet, a.id, 'POST /api/v1/payments/withdraw'),
    });
    expect(res.status).toBe(201);
    // Redis loses everything of this deployment (queues, jobs) while no worker runs.
    const redis = new Redis(redisConnectionOptions(api.config.redisUrl));
    try {
      const keys = await redis.keys(`${api.config.queuePrefix}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    expect(await status(res.body.data.withdrawalId)).toBe('pending');
    worker = startProcess(builtApp('worker'), api.env);
    await waitFor(
      async () => (await status(res.body.data.withdrawalId)) === 'completed',
      'withdrawal completed after the sweep',
    );
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
  });
});

describe('worker process: async executions and callbacks (e2e)', () => {
  let api: ApiHarness;
  let worker: RunningProcess | undefined;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start('/done');
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '500',
    });
    worker = startProcess(builtApp('worker'), api.env);
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await api.close();
    await agentServer.stop();
    await receiver.stop();
  });

  it('runs an async execution and posts its callback', async () => {
    const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } })).body.data.id;
    const h = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    const callbackUrl = receiver.url;
    const res = await api.request('POST', '/api/v1/execute?async=true', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'async' }, callbackUrl },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(202);
    const { jobId: id, statusUrl } = res.body.data;
    // `completed` comes a moment before `settled` (output is withheld until then): wait for both.
    await waitFor(
      async () =>
        (await api.request('GET', statusUrl, { headers: { [h.name]: h.value } })).body.data.settlement.status ===
        'settled',
      'async execution run and settled by the worker',
    );
    const done = (await api.request('GET', statusUrl, { headers: { [h.name]: h.value } })).body.data;
    expect(done).toMatchObject({ requestId: id, output: { translation: 'ASYNC' }, settlement: { status: 'settled' } });
    await waitFor(async () => receiver.received.length > 0, 'callback delivered by the worker');
    expect(receiver.received.map((r) => r.body)).toEqual([
      { requestId: id, status: 'completed', output: { translation: 'ASYNC' } },
    ]);
  });

  it('pays the refund of a variable-price execution (async run, then the refund job)', async () => {
    const capabilities = [
      capabilityPayload({
        id: 'quote',
        pricing: { model: 'dynamic', basePrice: '0.01', maxPrice: '0.3', currency: 'USDC' },
      }),
    ];
    const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url }, capabilities }))
      .body.data.id;
    const h = await x402Header(newWallet(), { amount: 301_000n, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute?async=true', {
      body: { targetAgentId: agentId, capabilityId: 'quote', input: { text: 'q', cost: '0.05' } },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(202);
    const read = async () => (await api.request('GET', res.body.data.statusUrl)).body.data;
    await waitFor(async () => (await read()).refund?.status === 'completed', 'refund paid by the worker');
    expect(await read()).toMatchObject({
      status: 'completed',
      cost: { agentFee: '0.050000', refunded: '0.250000' },
      refund: { amount: '0.250000', txHash: expect.stringMatching(/^0x/) },
    });
  });
});
