import { Queue } from 'bullmq';
import { redisConnectionOptions, jobId } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { withClient } from '../support/test-db';

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
      c.query(`INSERT INTO used_auth_messages (message_key, agent_id, expires_at) VALUES ($1, gen_random_uuid(), $2)`, [key, expiresAt]),
    );
  const messageKeys = () =>
    withClient(api.databaseUrl, async (c) => (await c.query('SELECT message_key FROM used_auth_messages ORDER BY 1')).rows.map((r) => r.message_key));

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
    expect(health.body.data.details.worker).toMatchObject({ status: 'up', queues: ['maintenance', 'payments'] });

    // The boot tick enqueues a prune; the processor deletes only expired messages.
    await waitFor(async () => !(await messageKeys()).includes('expired-1'), 'boot prune');
    expect(await messageKeys()).toEqual(['fresh-1']);

    // A job enqueued by another producer is drained too.
    await insertMessage('expired-2', new Date(Date.now() - 1_000));
    const queue = new Queue('maintenance', { connection: redisConnectionOptions(api.config.redisUrl), prefix: api.config.queuePrefix });
    try {
      const job = await queue.add('auth-messages.prune', { requestedAt: new Date().toISOString() }, { jobId: jobId('auth-messages.prune', 'e2e') });
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
});

describe('configuration is validated at start-up (e2e)', () => {
  it.each([
    ['api', { PORT: 'eighty' }, /PORT must be an integer/],
    ['api', { SETTLEMENT_MODE: 'evm' }, /EVM_RPC_URL is required when SETTLEMENT_MODE=evm/],
    ['worker', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres:/],
    ['worker', { PAYMENT_NETWORKS: 'base,solana' }, /PAYMENT_NETWORKS must be a comma list/],
    ['cli', { NODE_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: 'true' }, /cannot be on when NODE_ENV=production/],
  ] as const)('%s stops with a clear message for %j', async (app, env, message) => {
    const proc = startProcess(builtApp(app), { LOG_LEVEL: 'silent', ...env }, app === 'cli' ? ['migrate'] : []);
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/Invalid configuration/);
    expect(proc.output()).toMatch(message);
  });
});
