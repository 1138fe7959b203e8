import Redis from 'ioredis';
import { TestAgentServer } from '../support/agent-server';
import { x402Header } from '../support/x402';
import { JsonReceiver } from '../support/json-receiver';
import { redisConnectionOptions } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { HoldReleaseSchedule } from '@app/payments';
import { newWallet, walletHeaders } from '../support/wallets';

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
    await api.app.get(HoldReleaseSchedule).schedule(hold);
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
