import { FixedClock } from '@app/common';
import type { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { LeaseHeartbeat } from './lease-heartbeat';

describe('LeaseHeartbeat', () => {
  const LEASE = 9_000;
  let clock: FixedClock;
  let heartbeat: LeaseHeartbeat;

  beforeEach(() => {
    jest.useFakeTimers();
    clock = new FixedClock(new Date('2026-12-07T12:00:00Z'));
    heartbeat = new LeaseHeartbeat({ settlementLeaseMs: LEASE } as AppConfig, clock);
  });
  afterEach(() => jest.useRealTimers());

  /** Moves both clocks a third of a lease, and lets the renewal's promise settle. */
  const beat = async () => {
    clock.advance(LEASE / 3);
    await jest.advanceTimersByTimeAsync(LEASE / 3);
  };

  it('renews every third of a lease from the lease it last wrote, and stops when the work ends', async () => {
    const first = new Date(clock.nowMs() + LEASE);
    const calls: [number, number][] = [];
    let finish!: () => void;
    const work = heartbeat.holding(async (hold) => {
      hold(first, async (from, to) => (calls.push([from.getTime(), to.getTime()]), true));
      await new Promise<void>((r) => (finish = r));
      return 'done';
    });
    await beat();
    await beat();
    expect(calls).toEqual([
      [first.getTime(), first.getTime() + LEASE / 3],
      [first.getTime() + LEASE / 3, first.getTime() + (2 * LEASE) / 3],
    ]);
    finish();
    await expect(work).resolves.toBe('done');
    expect(heartbeat.size).toBe(0);
    await beat();
    expect(calls).toHaveLength(2);
  });

  it('drops a lease taken over, retries one whose renewal failed, and lets a failing work end it', async () => {
    const results = [Promise.reject(new Error('Postgres away')), Promise.resolve(false), Promise.resolve(false)];
    let renewals = 0;
    let finish!: (err: Error) => void;
    const work = heartbeat.holding(async (hold) => {
      hold(new Date(clock.nowMs() + LEASE), () => results[renewals++]);
      await new Promise<void>((_, reject) => (finish = reject));
    });
    await beat(); // failed: kept, tried again
    expect(heartbeat.size).toBe(1);
    await beat(); // taken over (from the lease it had, and from the one the failed renewal tried): dropped
    expect(heartbeat.size).toBe(0);
    await beat();
    expect(renewals).toBe(3);
    finish(new Error('the work failed'));
    await expect(work).rejects.toThrow('the work failed');
  });

  it('keeps a lease whose renewal committed with its reply lost: the next renews from the lease it wrote', async () => {
    const first = new Date(clock.nowMs() + LEASE);
    let row = first.getTime(); // the lease in Postgres
    let calls = 0;
    let finish!: () => void;
    const work = heartbeat.holding(async (hold) => {
      hold(first, async (from, to) => {
        calls++;
        if (row !== from.getTime()) return false;
        row = to.getTime();
        if (calls === 1) throw new Error('Connection terminated'); // committed, its reply lost
        return true;
      });
      await new Promise<void>((r) => (finish = r));
    });
    await beat(); // written, answered as failed
    await beat(); // from `first`: no row; from the lease the failed renewal wrote: renewed
    await beat();
    expect(heartbeat.size).toBe(1);
    expect(row).toBe(first.getTime() + LEASE);
    finish();
    await work;
  });

  it('logs and counts a lease lost while its work runs', async () => {
    const metrics = new Metrics({ process: 'test' });
    heartbeat = new LeaseHeartbeat({ settlementLeaseMs: LEASE } as AppConfig, clock, metrics);
    let finish!: () => void;
    const work = heartbeat.holding(async (hold) => {
      hold(new Date(clock.nowMs() + LEASE), async () => false);
      await new Promise<void>((r) => (finish = r));
    });
    await beat();
    expect(heartbeat.size).toBe(0);
    expect((await metrics.leasesLost.get()).values[0].value).toBe(1);
    finish();
    await work;
  });

  it("renews a lease of its own length (a payout's claim) by that length, at the first beat past a quarter of it", async () => {
    const CLAIM = 15_000; // beats stay every third of the settlement lease: this one is renewed every other beat
    const first = new Date(clock.nowMs() + CLAIM);
    const calls: [number, number][] = [];
    let finish!: () => void;
    const work = heartbeat.holding(async (hold) => {
      hold(first, async (from, to) => (calls.push([from.getTime(), to.getTime()]), true), CLAIM);
      await new Promise<void>((r) => (finish = r));
    });
    await beat(); // 3 s of 15 s: not yet
    expect(calls).toEqual([]);
    await beat(); // 6 s: renewed to 15 s from now
    await beat();
    await beat(); // 12 s: again
    const start = first.getTime() - CLAIM;
    expect(calls).toEqual([
      [first.getTime(), start + (2 * LEASE) / 3 + CLAIM],
      [start + (2 * LEASE) / 3 + CLAIM, start + (4 * LEASE) / 3 + CLAIM],
    ]);
    finish();
    await work;
  });

  it('beats every third of a shorter lease held (a short claim) and renews it by its own length', async () => {
    const CLAIM = 3_000;
    const calls: number[] = [];
    let finish!: () => void;
    const work = heartbeat.holding(async (hold) => {
      hold(new Date(clock.nowMs() + CLAIM), async (_, to) => (calls.push(to.getTime()), true), CLAIM);
      await new Promise<void>((r) => (finish = r));
    });
    const start = clock.nowMs();
    for (let i = 1; i <= 3; i++) {
      clock.advance(CLAIM / 3);
      await jest.advanceTimersByTimeAsync(CLAIM / 3);
    }
    expect(calls).toEqual([1, 2, 3].map((i) => start + (i * CLAIM) / 3 + CLAIM));
    finish();
    await work;
  });
});
