import Redis from 'ioredis';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { EventFanout } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { deliveryRows, nothingLeftToSend, relayedBeforeSweep } from '../support/webhook-rows';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const DELAYS = [0, 300, 600, 900, 1200];

/**
 * The worker process delivering webhooks: the outbox relayed after commit, the retry schedule,
 * the fifth failure, redelivery, a worker killed mid-delivery, Redis losing every job, and the
 * events the domains emit reaching a subscriber.
 */
describe('webhook delivery by the worker process (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess | undefined;
  let receiver: JsonReceiver;
  let agentServer: TestAgentServer;
  let owner: Wallet;
  let agentId: string;
  let ts = Date.now();

  const startWorker = () => (worker = startProcess(builtApp('worker'), api.env));
  const killWorker = async () => {
    if (!worker) return;
    worker.child.kill('SIGKILL');
    await worker.exited;
    worker = undefined;
  };

  beforeAll(async () => {
    receiver = await new JsonReceiver().start();
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: DELAYS.join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      MAINTENANCE_INTERVAL_MS: '300',
      ESCROW_HOLD_STANDARD_S: '0',
    });
    ds = api.app.get(DataSource);
    owner = newWallet();
    agentId = (
      await registerAgent(api, owner, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice: '1.20', currency: 'USDC' } })],
      })
    ).body.data.id;
    startWorker();
  });
  afterAll(async () => {
    await killWorker();
    await api.close();
    await receiver.stop();
    await agentServer.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.reply = null;
    receiver.status = 200;
  });

  const signed = (action: string | null) => walletHeaders(owner, agentId, action, ++ts);
  const subscribe = async (events: string[]) => {
    const res = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: receiver.url, events },
      headers: await signed('POST /api/v1/webhooks'),
    });
    expect(res.status).toBe(201);
    return res.body.data.webhookId as string;
  };
  const unsubscribe = async (id: string) =>
    api.request('DELETE', `/api/v1/webhooks/${id}`, {
      headers: await signed(`DELETE /api/v1/webhooks/${id}`),
    });
  const emit = (type: 'escrow.released' | 'dispute.filed', data: Record<string, unknown>) =>
    ds.transaction((m) => api.app.get(OutboxService).record(m, type, agentId, data));
  const rowsOf = (sub: string) => deliveryRows(ds, sub);
  const settled = (sub: string) => nothingLeftToSend(ds, agentId, sub);

  it('relays a committed event to the subscriber; a rolled-back one is never published', async () => {
    const sub = await subscribe(['dispute.filed']);
    await expect(
      ds.transaction(async (m) => {
        await api.app.get(OutboxService).record(m, 'dispute.filed', agentId, { disputeId: 'dsp_rolledback00' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const eventId = await emit('dispute.filed', { disputeId: 'dsp_committed000' });
    await waitFor(async () => receiver.received.length >= 1, 'delivery of the committed event');
    await waitFor(settled(sub), 'nothing left to send'); // then nothing else can show up
    expect(receiver.received.map((r) => r.body.id)).toEqual([eventId]);
    expect(await ds.query(`SELECT id FROM outbox_events WHERE data->>'disputeId' = 'dsp_rolledback00'`)).toEqual([]);
    expect(receiver.received[0].body.data).toEqual({ disputeId: 'dsp_committed000' });
    expect(await rowsOf(sub)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded' })]);
    await unsubscribe(sub);
  });

  it('relays through LISTEN/NOTIFY right after commit, well before the sweeper would (2 s grace)', async () => {
    const sub = await subscribe(['dispute.filed']);
    const eventId = await emit('dispute.filed', { disputeId: 'dsp_fastrelay00' });
    await waitFor(async () => receiver.received.length >= 1, 'relayed delivery');
    expect(receiver.received[0].body.id).toBe(eventId);
    // Published before the sweeper could take it: relayed on its notification (the latency: npm run bench:worker).
    expect(await relayedBeforeSweep(ds, eventId)).toBe(true);
    await unsubscribe(sub);
  });

  it('fans events committed together out in one job: their delivery rows are written by one transaction', async () => {
    const sub = await subscribe(['dispute.filed']);
    const ids = await ds.transaction(async (m) => {
      const out: string[] = [];
      for (let i = 0; i < 30; i++)
        out.push(
          await api.app
            .get(OutboxService)
            .record(m, 'dispute.filed', agentId, { disputeId: `dsp_batch${String(i).padStart(6, '0')}` }),
        );
      return out;
    });
    await waitFor(async () => receiver.received.length >= 30, 'delivery of the 30 events');
    expect(new Set(receiver.received.map((r) => r.body.id))).toEqual(new Set(ids));
    const [rows] = await ds.query(
      `SELECT count(*)::int AS n, count(DISTINCT created_at)::int AS writes FROM webhook_deliveries WHERE event_id = ANY($1)`,
      [ids],
    );
    expect(rows).toEqual({ n: 30, writes: 1 });
    await unsubscribe(sub);
  });

  it('retries on the configured schedule (+-10%), marks the subscription failed after the fifth failure, and sends no sixth', async () => {
    const sub = await subscribe(['escrow.released']);
    receiver.status = 500;
    await emit('escrow.released', {
      transactionId: 'tx_retry0000000',
      amount: '0.500000',
      newAvailableBalance: '0.500000',
    });
    // The fifth failure schedules nothing and fails the subscription in one transaction: once it is recorded, no
    // sixth attempt can come.
    await waitFor(async () => (await rowsOf(sub))[4]?.status === 'failed', 'the fifth failure recorded', 20_000);
    expect(receiver.received).toHaveLength(5);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1); // the same message on every attempt
    const rows = await rowsOf(sub);
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 'failed']));
    // Each retry scheduled at least 0.9 x its delay after the failed attempt was claimed (the +-10% band exactly, on a
    // fixed clock: execution-callbacks.e2e), and neither claimed nor received before its time; lateness: bench:worker.
    for (let i = 1; i < 5; i++) {
      const [due, previous] = [rows[i].scheduledAt.getTime(), rows[i - 1].attemptedAt.getTime()];
      expect(due - previous).toBeGreaterThanOrEqual(Math.round(DELAYS[i] * 0.9));
      expect(rows[i].attemptedAt.getTime()).toBeGreaterThanOrEqual(due);
      expect(receiver.received[i].at).toBeGreaterThanOrEqual(due);
      expect(receiver.received[i].at - receiver.received[i - 1].at).toBeGreaterThanOrEqual(DELAYS[i] * 0.9 - 5);
    }
    const list = (await api.request('GET', `/api/v1/webhooks/agent/${agentId}`)).body.data.webhooks;
    expect(list.find((w: { id: string }) => w.id === sub).status).toBe('failed');

    // The attempt log, and a manual redelivery (one attempt, outside the schedule) once the receiver is back.
    const log = await api.request('GET', `/api/v1/webhooks/${sub}/deliveries`, {
      headers: await signed(null),
    });
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(5);
    expect(log.body.data.deliveries[0]).toMatchObject({
      attempt: 5,
      status: 'failed',
      responseStatus: 500,
      manual: false,
      eventType: 'escrow.released',
    });
    expect((await api.request('GET', `/api/v1/webhooks/${sub}/deliveries`)).status).toBe(401);
    receiver.status = 200;
    const deliveryId = log.body.data.deliveries[0].deliveryId;
    const again = await api.request('POST', `/api/v1/webhooks/${sub}/deliveries/${deliveryId}/redeliver`, {
      headers: await signed(`POST /api/v1/webhooks/${sub}/deliveries/${deliveryId}/redeliver`),
    });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ manual: true, status: expect.stringMatching(/pending|sending|succeeded/) });
    await waitFor(async () => (await rowsOf(sub)).some((r) => r.manual && r.status === 'succeeded'), 'redelivery');
    expect(receiver.received).toHaveLength(6);
    expect(receiver.received[5].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    const unknown = await api.request('POST', `/api/v1/webhooks/${sub}/deliveries/dlv_doesnotexist0/redeliver`, {
      headers: await signed(`POST /api/v1/webhooks/${sub}/deliveries/dlv_doesnotexist0/redeliver`),
    });
    expect(unknown.status).toBe(404);
    await unsubscribe(sub);
  });

  it('loses no delivery when the worker is killed mid-delivery: the claim expires and a new worker sends it again', async () => {
    const sub = await subscribe(['escrow.released']);
    receiver.reply = (n) => (n === 0 ? { status: 200, delayMs: 30_000 } : { status: 200 });
    await emit('escrow.released', {
      transactionId: 'tx_killed000000',
      amount: '0.100000',
      newAvailableBalance: '0.100000',
    });
    await waitFor(async () => receiver.received.length >= 1, 'the first attempt in flight');
    await killWorker();
    expect((await rowsOf(sub))[0].status).toBe('sending');
    startWorker();
    await waitFor(async () => (await rowsOf(sub))[0]?.status === 'succeeded', 'delivery by the new worker', 20_000);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']); // receivers dedupe on it
    await unsubscribe(sub);
  });

  it('loses nothing when Redis loses every job: unpublished events and due attempts are swept back', async () => {
    const sub = await subscribe(['escrow.released']);
    await killWorker();
    // A delivery whose job is in Redis, and an event never relayed (no worker listening)...
    const queued = await emit('escrow.released', {
      transactionId: 'tx_queued000000',
      amount: '0.100000',
      newAvailableBalance: '0.100000',
    });
    await api.app.get(EventFanout).execute(queued);
    const unrelayed = await emit('escrow.released', {
      transactionId: 'tx_unrelayed000',
      amount: '0.200000',
      newAvailableBalance: '0.300000',
    });
    // ...then Redis loses every key of this deployment.
    const redis = new Redis(api.config.redisUrl);
    const keys = await redis.keys(`${api.config.queuePrefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    expect(await redis.keys(`${api.config.queuePrefix}:*`)).toEqual([]);
    await redis.quit();
    startWorker();
    await waitFor(async () => receiver.received.length >= 2, 'both events delivered after the sweep', 20_000);
    expect(receiver.received.map((r) => r.body.id).sort()).toEqual([queued, unrelayed].sort());
    await unsubscribe(sub);
  });

  it('delivers the events the domains emit, with the spec data fields (execution, escrow, withdrawal)', async () => {
    const sub = await subscribe(['execution.completed', 'execution.failed', 'escrow.released', 'withdrawal.completed']);
    const pay = async () => {
      const h = await x402Header(newWallet(), { amount: 1_201_000n, payTo: api.config.platformWallet });
      return { [h.name]: h.value };
    };
    const ok = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hook' } },
      headers: await pay(),
    });
    expect(ok.status).toBe(200);
    const failed = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: await pay(),
    });
    expect(failed.status).toBe(502);
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.00', destinationWallet: newWallet().address },
      headers: await signed('POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    await waitFor(async () => receiver.received.length >= 4, 'four events', 20_000);
    const byType = Object.fromEntries(receiver.received.map((r) => [r.body.type, r.body.data]));
    expect(byType['execution.completed']).toEqual({
      requestId: ok.body.data.requestId,
      agentId,
      capabilityId: 'translate',
      executionTime: expect.any(Number),
      earnings: '1.140000',
    });
    expect(byType['execution.failed']).toEqual({
      requestId: failed.body.error.details.requestId,
      agentId,
      capabilityId: 'translate',
      error: expect.stringMatching(/500/),
    });
    expect(byType['escrow.released']).toEqual({
      transactionId: ok.body.data.transactionId,
      amount: '1.140000',
      newAvailableBalance: '1.140000',
    });
    expect(byType['withdrawal.completed']).toMatchObject({
      withdrawalId: wd.body.data.withdrawalId,
      agentId,
      amount: '1.000000',
      fee: '0.100000',
      netAmount: '0.900000',
      txHash: expect.any(String),
    });
    await unsubscribe(sub);
  });
});
