import { FixedClock } from '@app/common';
import { JobProducer } from '@app/queues';
import { HoldReleaseSchedule, RELEASE_BUCKET_MS } from './hold-release-schedule';

describe('HoldReleaseSchedule', () => {
  const start = new Date(Math.floor(1_765_000_000_000 / RELEASE_BUCKET_MS) * RELEASE_BUCKET_MS + 1_000);
  let clock: FixedClock;
  let wakes: { name: string; data: unknown; opts: { jobId: string; delay?: number } }[];
  let queued: boolean;
  let schedule: HoldReleaseSchedule;

  beforeEach(() => {
    clock = new FixedClock(start);
    wakes = [];
    queued = true;
    const jobs = {
      wake: (name: string, data: unknown, opts: { jobId: string; delay?: number }) => {
        wakes.push({ name, data, opts });
        return Promise.resolve(queued);
      },
    } as unknown as JobProducer;
    schedule = new HoldReleaseSchedule(clock, jobs);
  });
  const held = (inMs: number) => ({ id: 'esc_1', status: 'held', releaseAt: new Date(start.getTime() + inMs) });

  it('one delayed job at the end of the bucket the hold falls in, named by the bucket', async () => {
    await schedule.schedule(held(60_000));
    const bucket = Math.ceil((start.getTime() + 60_000) / RELEASE_BUCKET_MS);
    expect(wakes).toEqual([
      {
        name: 'escrow.release-due',
        data: { bucket },
        opts: { jobId: expect.stringContaining(String(bucket)), delay: bucket * RELEASE_BUCKET_MS - start.getTime() },
      },
    ]);
    // The job runs no earlier than the hold is due, and at most one bucket later.
    const delay = wakes[0].opts.delay!;
    expect(delay).toBeGreaterThanOrEqual(60_000);
    expect(delay).toBeLessThan(60_000 + RELEASE_BUCKET_MS);
  });

  it('holds in a bucket already scheduled ask Redis nothing more; another bucket gets its own job', async () => {
    await schedule.schedule(held(60_000));
    await schedule.schedule({ ...held(60_001), id: 'esc_2' });
    expect(wakes).toHaveLength(1);
    await schedule.schedule({ ...held(60_000 + RELEASE_BUCKET_MS), id: 'esc_3' });
    expect(wakes).toHaveLength(2);
  });

  it('a hold due already is scheduled for the next bucket, never in the past', async () => {
    await schedule.schedule(held(-30_000));
    expect(wakes[0].opts.delay).toBeGreaterThanOrEqual(0);
    expect(wakes[0].data).toEqual({ bucket: Math.ceil((start.getTime() + 1) / RELEASE_BUCKET_MS) });
  });

  it('a released or frozen hold schedules nothing', async () => {
    await schedule.schedule({ ...held(60_000), status: 'released' });
    await schedule.schedule({ ...held(60_000), status: 'frozen' });
    expect(wakes).toEqual([]);
  });

  it('a job Redis did not take is asked for again by the next hold of its bucket', async () => {
    queued = false;
    await schedule.schedule(held(60_000));
    queued = true;
    await schedule.schedule({ ...held(60_000), id: 'esc_2' });
    await schedule.schedule({ ...held(60_000), id: 'esc_3' });
    expect(wakes).toHaveLength(2);
  });
});
