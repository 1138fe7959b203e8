import { sharedWhileRunning } from './shared-while-running';

describe('sharedWhileRunning', () => {
  it('gives calls made while one runs its result, and runs anew once it has settled, failure included', async () => {
    let runs = 0;
    let fail = false;
    const release: (() => void)[] = [];
    const shared = sharedWhileRunning(async () => {
      const n = ++runs;
      await new Promise<void>((r) => release.push(r));
      if (fail) throw new Error(`run ${n} failed`);
      return n;
    });
    const first = [shared(), shared(), shared()];
    release.shift()!();
    expect(await Promise.all(first)).toEqual([1, 1, 1]);
    fail = true;
    const second = [shared(), shared()];
    release.shift()!();
    await expect(Promise.all(second)).rejects.toThrow('run 2 failed');
    fail = false;
    const third = shared();
    release.shift()!();
    expect(await third).toBe(3);
    expect(runs).toBe(3);
  });
});
