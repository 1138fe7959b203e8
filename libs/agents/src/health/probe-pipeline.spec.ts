import { runProbePipeline } from './probe-pipeline';

type Item = { id: string; host: string | null };

/** A source that answers the given claims in turn (at most `limit` of each, the rest next time), then nothing. */
const claims = (...batches: Item[][]) => ({
  claim: async (limit: number) => {
    const head = batches[0] ?? [];
    if (head.length <= limit) return batches.shift() ?? [];
    return head.splice(0, limit);
  },
});

const tick = () => new Promise((r) => setImmediate(r));

describe('runProbePipeline', () => {
  it('has no batch barrier: a slow probe does not hold back the probes claimed after it', async () => {
    let releaseSlow!: () => void;
    const started: string[] = [];
    const source = claims(
      [
        { id: 'slow', host: 'a' },
        { id: 'b', host: 'b' },
      ],
      [{ id: 'c', host: 'c' }],
      [{ id: 'd', host: 'd' }],
    );
    const recorded: string[] = [];
    const round = runProbePipeline<Item, string>({
      concurrency: 2,
      perHost: 1,
      ...source,
      hostOf: (i) => i.host,
      probe: async (i) => {
        started.push(i.id);
        if (i.id === 'slow') await new Promise<void>((r) => (releaseSlow = r));
        return i.id;
      },
      defer: async () => undefined,
      record: async (rs) => void recorded.push(...rs),
      recordBatch: 1,
      recordDelayMs: 10,
    });
    // c and d are claimed, probed and recorded while the slow probe still runs.
    while (!recorded.includes('d')) await tick();
    expect(started).toEqual(['slow', 'b', 'c', 'd']);
    expect(recorded).not.toContain('slow');
    releaseSlow();
    expect(await round).toEqual({ probed: 4, deferred: 0, unrecorded: 0 });
    expect(recorded.sort()).toEqual(['b', 'c', 'd', 'slow']);
  });

  it('never exceeds the global nor the per-host cap, probes and records every item in batches', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const perHost = new Map<string, number>();
    let maxPerHost = 0;
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `i${i}`, host: `h${i % 10}` }));
    const batches: Item[][] = [];
    for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
    const recorded: string[][] = [];
    const stats = await runProbePipeline<Item, string>({
      concurrency: 8,
      perHost: 2,
      ...claims(...batches),
      hostOf: (i) => i.host,
      probe: async (i) => {
        inFlight++;
        perHost.set(i.host!, (perHost.get(i.host!) ?? 0) + 1);
        maxInFlight = Math.max(maxInFlight, inFlight);
        maxPerHost = Math.max(maxPerHost, perHost.get(i.host!)!);
        await new Promise((r) => setTimeout(r, 1 + (Number(i.id.slice(1)) % 3)));
        inFlight--;
        perHost.set(i.host!, perHost.get(i.host!)! - 1);
        return i.id;
      },
      defer: async () => undefined,
      record: async (rs) => void recorded.push(rs),
      recordBatch: 16,
      recordDelayMs: 5,
    });
    expect(stats).toEqual({ probed: 200, deferred: 0, unrecorded: 0 });
    expect(maxInFlight).toBe(8);
    expect(maxPerHost).toBe(2);
    expect(recorded.flat().sort()).toEqual(items.map((i) => i.id).sort());
    expect(Math.max(...recorded.map((r) => r.length))).toBeLessThanOrEqual(16);
  });

  it('defers the items of a host whose backlog is full, so one crowded host cannot fill the window', async () => {
    const crowd = Array.from({ length: 10 }, (_, i) => ({ id: `x${i}`, host: 'crowded' }));
    const deferred: string[] = [];
    const gates: (() => void)[] = [];
    const stats = runProbePipeline<Item, string>({
      concurrency: 10,
      perHost: 1,
      ...claims([...crowd, { id: 'other', host: 'other' }]),
      hostOf: (i) => i.host,
      probe: async (i) => {
        if (i.host === 'crowded') await new Promise<void>((r) => gates.push(r));
        return i.id;
      },
      defer: async (items) => void deferred.push(...items.map((i) => i.id)),
      record: async () => undefined,
      recordBatch: 50,
      recordDelayMs: 1,
    });
    while (deferred.length === 0) await tick();
    // Backlog 4 x perHost: four kept (one probing, three waiting for the host's slot), six given back.
    expect(deferred).toEqual(['x4', 'x5', 'x6', 'x7', 'x8', 'x9']);
    let done = false;
    void stats.then(() => (done = true));
    while (!done) {
      gates.shift()?.();
      await tick();
    }
    expect(await stats).toEqual({ probed: 5, deferred: 6, unrecorded: 0 });
  });

  it('counts a batch that fails to record and goes on; an item without a host is probed without a slot', async () => {
    let first = true;
    const recorded: string[] = [];
    const stats = await runProbePipeline<Item, string>({
      concurrency: 1,
      perHost: 1,
      ...claims([{ id: 'a', host: 'h' }], [{ id: 'bad', host: null }], [{ id: 'c', host: 'h' }]),
      hostOf: (i) => i.host,
      probe: async (i) => i.id,
      defer: async () => undefined,
      record: async (rs) => {
        if (first) {
          first = false;
          throw new Error('database down');
        }
        recorded.push(...rs);
      },
      recordBatch: 1,
      recordDelayMs: 1,
    });
    expect(stats).toEqual({ probed: 3, deferred: 0, unrecorded: 1 });
    expect(recorded).toEqual(['bad', 'c']);
  });
});
