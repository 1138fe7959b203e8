import { randomUUID } from 'node:crypto';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { InFlightRuns, RateLimiter } from '@app/execution';
import { Metrics } from '@app/metrics';
import {
  FairShare,
  JobProducer,
  pingRedis,
  QUEUES,
  queuePrefixOf,
  readyWithin,
  redisClusterClient,
  slotOwners,
  watchFailovers,
} from '@app/queues';
import { NonceGuard } from '@app/x402';
import { waitFor } from '../support/processes';
import { startRedisCluster, TestRedisCluster } from '../support/redis-cluster';

/**
 * The Redis scripts that take several keys at once, on a real Redis Cluster (3 primaries, 3
 * replicas, started here): a key of another slot would fail them with CROSSSLOT. The fair share's
 * cap fails open on any Redis error, so it is shown to hold (jobs parked, at most `limit` at once),
 * not just to answer. And the queues' hash tags spread the queues over the primaries.
 */
describe('Redis scripts on a Redis Cluster (integration)', () => {
  let cluster: TestRedisCluster;
  let redis: Cluster;
  const prefix = `rc${randomUUID().slice(0, 8)}`;
  let config: AppConfig;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    // The client the apps use for everything but the queues (no offline queue: ready before use).
    redis = redisClusterClient(cluster.urls, 'commands');
    await readyWithin(redis, 10_000);
    config = {
      queuePrefix: prefix,
      redisClusterNodes: cluster.urls,
      rateLimitClientPerMin: 2,
      rateLimitAgentPerMin: 100,
      executionTimeoutMs: 30_000,
      runClaimGraceMs: 5_000,
    } as AppConfig;
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  it('gives each queue a slot of its own, and the queues of a deployment spread over the primaries', async () => {
    const agora = { ...config, queuePrefix: 'agora' } as AppConfig;
    const tags = Object.values(QUEUES).map((q) => queuePrefixOf(agora, q));
    expect(tags).toEqual(Object.values(QUEUES).map((q) => `{agora:${q}}`));
    const primaries = await Promise.all(tags.map((t) => cluster.primaryOf(t)));
    expect(new Set(primaries).size).toBeGreaterThanOrEqual(2);
  });

  it('takes the rate-limit windows, the nonce claim and the run claim in one script', async () => {
    const limiter = new RateLimiter(redis, config, new SystemClock());
    const nonces = new NonceGuard(redis, config);
    const runs = new InFlightRuns(redis, config, new SystemClock());
    const ref = { chainId: 84532, asset: '0xAsset', payer: '0xPayer', nonce: `0x${'cd'.repeat(32)}` };
    const claim = nonces.claimRequest({ ...ref, validBefore: String(Math.floor(Date.now() / 1000) + 600) });
    const run = runs.request('0xpayer', 'key-1', { fingerprint: 'f', requestId: 'r1' }, null as never);
    expect(await limiter.hit('0xpayer', 'agent-1', claim, true, run)).toMatchObject({
      claimed: true,
      run: 'taken',
      clientRemaining: 1,
      retryAfterS: null,
    });
    expect((await runs.current('0xpayer', 'key-1'))?.requestId).toBe('r1');
    // The same nonce again: not claimed, and the run claim only read (held by the first).
    const again = await limiter.hit('0xpayer', 'agent-1', claim, true, run);
    expect(again).toMatchObject({ claimed: false, clientRemaining: 0 });
    // The client's window is full (2 a minute): turned away, nothing claimed.
    expect(await limiter.hit('0xpayer', 'agent-1')).toMatchObject({ clientRemaining: 0, claimed: null });
  });

  it("holds a fair share's cap: one job of the key at a time, the others parked and woken in turn", async () => {
    const connection = redisClusterClient(cluster.urls, 'queues'); // as BullMQ's workers need it
    const queue = new Queue(QUEUES.executions, { connection, prefix: queuePrefixOf(config, QUEUES.executions) });
    const metrics = new Metrics({ process: 'worker', defaultMetrics: false });
    const share = new FairShare(
      redis,
      { queueFor: () => queue } as unknown as JobProducer,
      config,
      metrics,
      new SystemClock(),
    );
    const log = { running: 0, most: 0, done: 0 };
    const worker = new Worker(
      QUEUES.executions,
      async (job: Job, token?: string) => {
        const pass = await share.gate({ job, token }, 'agent', 1)!.enter('agent:x', {
          holdMs: 10_000,
          park: async () => undefined,
        });
        if (!pass) throw new DelayedError();
        log.most = Math.max(log.most, ++log.running);
        await new Promise((resolve) => setTimeout(resolve, 150));
        log.running--;
        log.done++;
        await pass.leave();
      },
      { connection, prefix: queuePrefixOf(config, QUEUES.executions), concurrency: 4 },
    );
    try {
      for (let i = 0; i < 4; i++) await queue.add(`j${i}`, {}, { jobId: `j${i}` });
      await waitFor(async () => log.done === 4, 'four capped jobs done', 20_000);
      expect(log.most).toBe(1);
      expect(await metrics.text()).toMatch(/^agora_jobs_capped_total\{[^}]*scope="agent"[^}]*\} [1-9]/m);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  // Last: it kills a primary.
  it('readiness fails while a primary is dead and holds again once its replica serves; the failover is seen once settled', async () => {
    expect(await pingRedis(redis)).toBe('PONG');
    let failovers = 0;
    const stop = watchFailovers(redis, () => failovers++);
    try {
      const victim = await cluster.primaryOf(`{${prefix}:executions}`);
      const killed = cluster.killPrimary(victim);
      await waitFor(
        async () =>
          pingRedis(redis).then(
            () => false,
            () => true,
          ),
        'readiness to fail',
        10_000,
      );
      await killed;
      await waitFor(
        async () =>
          pingRedis(redis).then(
            () => true,
            () => false,
          ),
        'readiness again',
        20_000,
      );
      // The client's slot map has the replica in its primary's place.
      expect(slotOwners(redis).has(`127.0.0.1:${victim}`)).toBe(false);
      expect(failovers).toBeGreaterThanOrEqual(1);
    } finally {
      stop();
    }
  });
});
