import { FixedClock } from '@app/common';
import type { AppConfig } from '@app/config';
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
    const results = [Promise.reject(new Error('Postgres away')), Promise.resolve(false)];
    let renewals = 0;
    let finish!: (err: Error) => void;
    const work = heartbeat.holding(async (hold) => {
      hold(new Date(clock.nowMs() + LEASE), () => results[renewals++]);
      await new Promise<void>((_, reject) => (finish = reject));
    });
    await beat(); // failed: kept, tried again
    expect(heartbeat.size).toBe(1);
    await beat(); // taken over: dropped
    expect(heartbeat.size).toBe(0);
    await beat();
    expect(renewals).toBe(2);
    finish(new Error('the work failed'));
    await expect(work).rejects.toThrow('the work failed');
  });
});
