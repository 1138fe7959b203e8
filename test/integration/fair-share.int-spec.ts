import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { FairShare, JobProducer, Lane, redisConnectionOptions } from '@app/queues';
import { TEST_REDIS_URL } from '../setup/test-env';
import { waitFor } from '../support/processes';

const QUEUE = 'executions';

/**
 * FairShare against a real Redis and a real BullMQ worker: the cap across concurrent jobs, the line
 * served first come first served by passes left to it, no attempt spent by waiting, a pass whose
 * holder died (kill -9: never given back) running out after its hold, and the cap failing open when
 * Redis does not answer.
 */
describe('FairShare (integration)', () => {
  const connection = redisConnectionOptions(TEST_REDIS_URL);
  const redis = new Redis({ ...connection, maxRetriesPerRequest: 2 });
  const prefix = `fstest${randomUUID().slice(0, 8)}`;
  const queue = new Queue(QUEUE, { connection, prefix });
  const metrics = new Metrics({ process: 'worker', defaultMetrics: false });
  const share = new FairShare(
    redis,
    { queueFor: () => queue } as unknown as JobProducer,
    { queuePrefix: prefix } as AppConfig,
    metrics,
    new SystemClock(),
  );
  let worker: Worker | undefined;

  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const completed = async (ids: string[]) =>
    (await Promise.all(ids.map(async (id) => (await queue.getJob(id))?.isCompleted()))).every(Boolean);

  /** A worker whose jobs take `key`'s turn (cap `limit`), run `body` while they hold a pass, and record what happened. */
  const startWorker = (key: string, limit: number, holdMs: number, body: (name: string) => Promise<void>) => {
    const log = { started: [] as string[], parked: [] as string[], running: 0, most: 0 };
    worker = new Worker(
      QUEUE,
      async (job: Job, token?: string) => {
        const gate = share.gate({ job, token }, 'agent', limit)!;
        const pass = await gate.enter(key, { holdMs, park: async () => void log.parked.push(job.name) });
        if (!pass) throw new DelayedError();
        log.started.push(job.name);
        log.most = Math.max(log.most, ++log.running);
        try {
          await body(job.name);
        } finally {
          log.running--;
          await pass.leave();
        }
      },
      { connection, prefix, concurrency: 8 },
    );
    return log;
  };

  it('runs at most `limit` at once; the others wait in line and run in the order they came, each once, spending no attempt', async () => {
    const release = new Map<string, () => void>();
    const log = startWorker('agent:a', 2, 30_000, (name) => new Promise<void>((resolve) => release.set(name, resolve)));
    const names = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];
    for (const name of names) await queue.add(name, {}, { jobId: name });
    const lineKey = `${prefix}:cap:{${QUEUE}:agent:agent:a}:line`;
    await waitFor(
      async () => log.started.length === 2 && (await redis.zcard(lineKey)) === 4,
      'two running, four in line',
    );
    expect(await queue.getDelayedCount()).toBe(4);
    const first = [...log.started];
    const line = await redis.zrange(lineKey, 0, -1);
    expect(new Set(log.parked)).toEqual(new Set(line));
    // Each end wakes the head of the line at once (its own delay is 30 s and more), which takes the pass.
    // One end at a time, once the job the previous end woke has started.
    for (let i = 0; i < names.length; i++) {
      await waitFor(
        async () => log.started.length === Math.min(names.length, i + 2) && release.has(log.started[i]),
        `${i + 2} jobs started`,
        5_000,
      );
      release.get(log.started[i])!();
    }
    await waitFor(async () => (await queue.getCompletedCount()) === names.length, 'every job completed');
    expect(log.most).toBe(2);
    expect(new Set(log.started).size).toBe(names.length);
    expect(log.started.slice(2)).toEqual(line);
    // One attempt each (the one that ran); a job that waited was taken twice.
    for (const name of names)
      expect((await queue.getJob(name))!).toMatchObject({
        attemptsMade: 1,
        attemptsStarted: first.includes(name) ? 1 : 2,
      });
    expect(await metrics.text()).toMatch(/^agora_jobs_capped_total\{[^}]*scope="agent"[^}]*\} 4$/m);
  });

  it('levels after the key (an owner, a pool): one owner holds at most its share, waiting or running; another owner goes at once; each job runs once', async () => {
    const release = new Map<string, () => void>();
    const log = { started: [] as string[], running: new Map<string, number>(), most: new Map<string, number>() };
    // Every job has its own agent (the first level never binds); owner `a` may run 2 at once, the pool 3.
    const lanes = (owner: string): Lane[] => [
      { scope: 'owner', key: owner, limit: 2 },
      { scope: 'pool', key: 'unfunded', limit: 3 },
    ];
    worker = new Worker(
      QUEUE,
      async (job: Job<{ owner: string }>, token?: string) => {
        const gate = share.gate({ job, token }, 'agent', 2, async () => lanes(job.data.owner))!;
        const pass = await gate.enter(`agent:${job.name}`, { holdMs: 30_000, park: async () => undefined });
        if (!pass) throw new DelayedError();
        log.started.push(job.name);
        const count = (log.running.get(job.data.owner) ?? 0) + 1;
        log.running.set(job.data.owner, count);
        log.most.set(job.data.owner, Math.max(log.most.get(job.data.owner) ?? 0, count));
        try {
          await new Promise<void>((resolve) => release.set(job.name, resolve));
        } finally {
          log.running.set(job.data.owner, log.running.get(job.data.owner)! - 1);
          await pass.leave();
        }
      },
      { connection, prefix, concurrency: 16 },
    );
    const attacker = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'];
    for (const name of attacker) await queue.add(name, { owner: 'a' }, { jobId: name });
    const ownerLine = `${prefix}:cap:{${QUEUE}:owner:a}:line`;
    await waitFor(
      async () => log.started.length === 2 && (await redis.zcard(ownerLine)) === 6,
      "two of a's jobs running, six in a's line",
    );
    // Another owner's job goes at once: the pool has a pass left, which owner `a` cannot take.
    await queue.add('honest', { owner: 'b' }, { jobId: 'honest' });
    await waitFor(async () => log.started.includes('honest'), 'the other owner running', 5_000);
    expect(log.running.get('a')).toBe(2);
    expect(await redis.zcard(`${prefix}:cap:{${QUEUE}:pool:unfunded}:line`)).toBe(0);
    // Each end lets the next of a's jobs run: a never has more than 2 going, and every job runs once.
    release.get('honest')!();
    for (let i = 0; i < attacker.length; i++) {
      await waitFor(
        async () => log.started.filter((n) => n !== 'honest')[i] !== undefined,
        `job ${i + 1} of a's started`,
        5_000,
      );
      const next = log.started.filter((n) => n !== 'honest')[i];
      await waitFor(async () => release.has(next), `job ${i + 1} of a's holding its pass`);
      release.get(next)!();
      await waitFor(async () => log.started.length >= Math.min(attacker.length, i + 3) + 1, `${i + 3} of a's started`);
    }
    await waitFor(async () => completed([...attacker, 'honest']), 'every job completed');
    expect(log.most.get('a')).toBe(2);
    expect(new Set(log.started).size).toBe(attacker.length + 1);
    expect(await metrics.text()).toMatch(/^agora_jobs_capped_total\{[^}]*scope="owner"[^}]*\} [1-9]/m);
  });

  it('a job that waits at a later level keeps its passes before: owners filling a pool hold at most their share of it each', async () => {
    const release: (() => void)[] = [];
    let inPool = 0;
    let most = 0;
    worker = new Worker(
      QUEUE,
      async (job: Job<{ owner: string }>, token?: string) => {
        const gate = share.gate({ job, token }, 'agent', 5, async () => [
          { scope: 'owner', key: `p-${job.data.owner}`, limit: 1 },
          { scope: 'pool', key: 'p', limit: 2 },
        ])!;
        const pass = await gate.enter(`agent:p-${job.data.owner}`, { holdMs: 30_000, park: async () => undefined });
        if (!pass) throw new DelayedError();
        most = Math.max(most, ++inPool);
        try {
          await new Promise<void>((resolve) => release.push(resolve));
        } finally {
          inPool--;
          await pass.leave();
        }
      },
      { connection, prefix, concurrency: 16 },
    );
    // Three owners, three jobs each; the pool takes two at once.
    for (const owner of ['x', 'y', 'z'])
      for (let i = 0; i < 3; i++) await queue.add(`p-${owner}${i}`, { owner }, { jobId: `p-${owner}${i}` });
    const poolLine = `${prefix}:cap:{${QUEUE}:pool:p}:line`;
    await waitFor(
      async () => inPool === 2 && (await redis.zcard(poolLine)) === 1,
      'two running, one owner waiting in the pool',
    );
    // Each owner's other jobs wait in its own line (it holds its one owner pass), not in the pool's.
    for (const owner of ['x', 'y', 'z'])
      expect(await redis.zcard(`${prefix}:cap:{${QUEUE}:owner:p-${owner}}:line`)).toBe(2);
    let done = 0;
    while (done < 9) {
      await waitFor(async () => release.length > 0, 'a job holding the pool');
      release.shift()!();
      done++;
    }
    await waitFor(
      async () => completed(['x', 'y', 'z'].flatMap((o) => [0, 1, 2].map((i) => `p-${o}${i}`))),
      'every job completed',
    );
    expect(most).toBe(2);
  });

  it('a pass never given back (its worker killed) runs out after its hold: the job in line runs then', async () => {
    const holdMs = 600;
    // A worker took a pass and died: the pass is in Redis, nothing will give it back.
    const dead = share.gate({ job: { id: 'dead', name: 'dead', queueName: QUEUE } as unknown as Job }, 'agent', 1)!;
    expect(await dead.enter('agent:b', { holdMs, park: async () => undefined })).not.toBeNull();
    const took = Date.now();
    const log = startWorker('agent:b', 1, holdMs, async () => undefined);
    await queue.add('after-death', {}, { jobId: 'after-death' });
    await waitFor(async () => log.started.includes('after-death'), 'the job in line running', 10_000);
    expect(log.parked).toEqual(['after-death']);
    expect(Date.now() - took).toBeGreaterThanOrEqual(holdMs);
  });

  it('fails open: when Redis does not answer the cap, the job runs uncapped (and says so)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const gone = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    try {
      const blind = new FairShare(
        gone,
        { queueFor: () => queue } as unknown as JobProducer,
        { queuePrefix: prefix } as AppConfig,
        metrics,
        new SystemClock(),
      );
      const job = { id: 'blind', name: 'blind', queueName: QUEUE } as unknown as Job;
      let parked = false;
      const pass = await blind
        .gate({ job }, 'agent', 1)!
        .enter('agent:c', { holdMs: 1_000, park: async () => void (parked = true) });
      expect(pass).not.toBeNull();
      expect(parked).toBe(false);
      await pass!.leave();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ key: 'agent:c' }),
        'the cap did not answer; the job runs uncapped',
      );
    } finally {
      warn.mockRestore();
      gone.disconnect();
    }
  });
});
