import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
import { startRedisCluster } from '../support/redis-cluster';
import { PrivateRedis, startPrivateRedis } from '../support/redis-server';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const ENQUEUE_TIMEOUT_MS = 300;

/** The Redis a case runs on: it goes down, comes back empty (so the api's queues can close), and stops. */
interface Backend {
  env: Record<string, string>;
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

async function oneNode(): Promise<Backend> {
  const port = await freePort();
  let redis: PrivateRedis = await startPrivateRedis({ tcpPort: port });
  return {
    env: { REDIS_URL: redis.url! },
    down: () => redis.stop(),
    up: async () => void (redis = await startPrivateRedis({ tcpPort: port })),
    stop: () => redis.stop(),
  };
}

async function aCluster(): Promise<Backend> {
  const cluster = await startRedisCluster(3);
  return {
    env: { REDIS_CLUSTER_NODES: cluster.urls.join(',') },
    down: () => cluster.stopAll(),
    up: () => cluster.restartAll(),
    stop: () => cluster.stop(),
  };
}

/**
 * Issue 16, defect 2: with Redis down, a request that has committed its rows and then wakes the
 * worker answers promptly (the enqueue is bounded by ENQUEUE_TIMEOUT_MS; the sweeper enqueues the
 * row later). Before, BullMQ's add never rejected and the request waited until Redis came back.
 * Issue 37: the same on a Redis Cluster with every node gone, where the client queues nothing
 * while the cluster is unreachable; and a paid execute, which Redis admits, is refused at once
 * without a charge, on both.
 */
describe.each([
  ['one Redis', oneNode],
  ['a Redis Cluster', aCluster],
])('faults: %s down after the commit (e2e)', (_redis, start) => {
  let api: ApiHarness;
  let ds: DataSource;
  let redis: Backend;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    redis = await start();
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      ...redis.env,
      ENQUEUE_TIMEOUT_MS: String(ENQUEUE_TIMEOUT_MS),
      RATE_LIMIT_READS_PER_MIN: '600',
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await redis.up();
    await api.close();
    await agentServer.stop();
    await redis.stop();
  });

  /** The request's answer and how long it took; a hung request is cut off at 10 s (and fails). */
  async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
    const started = Date.now();
    const result = await Promise.race([
      call(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the request hung with Redis down')), 10_000),
      ),
    ]);
    return { result, ms: Date.now() - started };
  }

  it('a withdrawal and a dispute filing commit and answer within the enqueue bound; their rows wait for the sweeper', async () => {
    const wallet = newWallet();
    const reg = await registerAgent(api, wallet, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(reg.status).toBe(201);
    const agentId = reg.body.data.id;
    await seedCharge(api.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const call = await paidExecute(api, agentId, newWallet(), 11_000n);

    await redis.down();

    const withdrawal = await timed(async () =>
      api.request('POST', '/api/v1/payments/withdraw', {
        body: { agentId, amount: '1.000000', destinationWallet: newWallet().address },
        headers: await walletHeaders(wallet, agentId, 'POST /api/v1/payments/withdraw'),
      }),
    );
    expect(withdrawal.result.status).toBe(201);
    expect(withdrawal.ms).toBeLessThan(ENQUEUE_TIMEOUT_MS + 2_000);
    const [w] = await ds.query(`SELECT status FROM withdrawals WHERE id = $1`, [
      withdrawal.result.body.data.withdrawalId,
    ]);
    expect(w.status).toBe('pending');

    const filed = await timed(() => fileDispute(api, call));
    expect(filed.result.status).toBe(201);
    expect(filed.ms).toBeLessThan(ENQUEUE_TIMEOUT_MS + 2_000);
    const [d] = await ds.query(`SELECT status FROM disputes WHERE id = $1`, [filed.result.body.data.disputeId]);
    expect(d.status).toBe('pending');

    // Admission needs Redis (rate limits, the nonce claim): the request is refused at once, charging nothing.
    const calls = agentServer.calls.length;
    const [{ n: payments }] = await ds.query(`SELECT count(*)::int AS n FROM payments`);
    const payment = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    const refused = await timed(() =>
      api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'redis is down' } },
        headers: { [payment.name]: payment.value },
      }),
    );
    // One node: two reconnection attempts (about 1-2.5 s here); a cluster without its offline queue: at once.
    expect(refused.ms).toBeLessThan(5_000);
    expect(refused.result.status).toBe(503);
    expect(refused.result.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.result.headers.get('retry-after')).toBe('1');
    expect(agentServer.calls.length).toBe(calls);
    expect((await ds.query(`SELECT count(*)::int AS n FROM payments`))[0].n).toBe(payments);
  });

  it('public reads are served while the per-IP limiter cannot reach Redis: counted in the process instead (issue 29), never refused for it', async () => {
    const read = await timed(() => api.request('GET', '/api/v1/discover'));
    expect(read.result.status).toBe(200);
    expect(read.ms).toBeLessThan(2_000);
    // Before issue 29 the read was not counted at all (no header); now the api counts it alone.
    expect(Number(read.result.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
  });
});
