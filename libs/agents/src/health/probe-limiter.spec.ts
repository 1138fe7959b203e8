import { ProbeLimiter } from './probe-limiter';

describe('ProbeLimiter', () => {
  it('never exceeds the global cap nor the per-host cap, and runs every task', async () => {
    const limiter = new ProbeLimiter(5, 2);
    let global = 0;
    let maxGlobal = 0;
    const perHost = new Map<string, number>();
    const maxPerHost = new Map<string, number>();
    const done: number[] = [];
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 40 }, (_, i) => {
      const host = `h${i % 4}`;
      return limiter.run(host, async () => {
        global++;
        maxGlobal = Math.max(maxGlobal, global);
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        maxPerHost.set(host, Math.max(maxPerHost.get(host) ?? 0, perHost.get(host)!));
        await new Promise<void>((r) => gates.push(r));
        global--;
        perHost.set(host, perHost.get(host)! - 1);
        done.push(i);
      });
    });
    // Release the running tasks one at a time until all have run.
    while (done.length < 40) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    await Promise.all(tasks);
    expect(maxGlobal).toBe(5);
    expect(Math.max(...maxPerHost.values())).toBe(2);
    expect(new Set(done).size).toBe(40);
  });

  it('a host at its cap does not hold back other hosts', async () => {
    const limiter = new ProbeLimiter(10, 1);
    let releaseSlow!: () => void;
    const slow = limiter.run('slow', () => new Promise<void>((r) => (releaseSlow = r)));
    const blocked = limiter.run('slow', async () => 'second');
    const other = await limiter.run('fast', async () => 'fast ran');
    expect(other).toBe('fast ran');
    releaseSlow();
    await slow;
    expect(await blocked).toBe('second');
  });
});
