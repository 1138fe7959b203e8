import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { FairShare, JobProducer, redisConnectionOptions } from '@app/queues';
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
