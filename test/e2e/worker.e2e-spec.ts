import { Queue } from 'bullmq';
import { redisConnectionOptions, jobId, QUEUES } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { HoldReleaseSchedule, RELEASE_BUCKET_MS } from '@app/payments';
import { newWallet } from '../support/wallets';

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
    // Pruned a minute past its window (PRUNE_MARGIN_MS); one ended 30 s ago is kept still.
    await insertMessage('expired-1', new Date(Date.now() - 61_000));
    await insertMessage('within-margin', new Date(Date.now() - 30_000));
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
    expect(await messageKeys()).toEqual(['fresh-1', 'within-margin']);
    await withClient(api.databaseUrl, (c) =>
      c.query(`DELETE FROM used_auth_messages WHERE message_key = 'within-margin'`),
    );

    // A job enqueued by another producer is drained too.
    await insertMessage('expired-2', new Date(Date.now() - 61_000));
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
    const schedule = api.app.get(HoldReleaseSchedule);
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
    for (const hold of holds) await schedule.schedule(hold);
    await schedule.schedule(holds[0]); // asked again: nothing more is queued

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
