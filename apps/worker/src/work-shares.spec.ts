import { AppConfig } from '@app/config';
import { WorkPartiesRepository } from '@app/execution';
import { FixedClock } from '@app/common';
import { WorkShares } from './work-shares';

describe('WorkShares', () => {
  const config = {
    workerPartyConcurrency: 4,
    webhookPartyConcurrency: 8,
    workerFundedVolumeMicro: 5_000_000,
    executionTimeoutMs: 30_000,
  } as AppConfig;
  const stalled = new Set<string>();
  const stallReads: unknown[] = [];
  const paid = new Map<string, bigint>([
    ['owner:0xrich', 5_000_000n],
    ['payer:0xspender', 9_000_000n],
  ]);
  const reads: string[] = [];
  const parties = {
    ofRun: async (id: string) =>
      ({ r1: { owner: '0xfresh', payer: '0xnew' }, r2: { owner: '0xrich', payer: '0xspender' } })[id] ?? null,
    ofDelivery: async (id: string) =>
      ({ d1: { kind: 'callback', wallet: '0xnew' }, d2: { kind: 'webhook', wallet: '0xrich' } })[id] ?? null,
    paidTo: async (w: string) => (reads.push(`owner:${w}`), paid.get(`owner:${w}`) ?? 0n),
    paidBy: async (w: string) => (reads.push(`payer:${w}`), paid.get(`payer:${w}`) ?? 0n),
    stalling: async (w: string, o: unknown) => (stallReads.push([w, o]), stalled.has(w)),
  } as unknown as WorkPartiesRepository;
  const clock = new FixedClock(new Date('2026-11-27T00:00:00Z'));

  it('a run: its owner and payer at the share, the pool for an owner with no paid record; twice the share with one, out of the pool', async () => {
    const shares = new WorkShares(parties, config, clock);
    expect(await shares.ofRun('r1')).toEqual([
      { scope: 'owner', key: '0xfresh', limit: 4 },
      { scope: 'payer', key: '0xnew', limit: 4 },
      { scope: 'pool', key: 'unfunded', limit: 12 },
    ]);
    expect(await shares.ofRun('r2')).toEqual([
      { scope: 'owner', key: '0xrich', limit: 8 },
      { scope: 'payer', key: '0xspender', limit: 8 },
    ]);
    expect(await shares.ofRun('gone')).toEqual([]);
  });

  it("a delivery: a callback's payer, a webhook's owner", async () => {
    const shares = new WorkShares(parties, config, clock);
    expect(await shares.ofDelivery('d1')).toEqual([
      { scope: 'payer', key: '0xnew', limit: 8 },
      { scope: 'pool', key: 'unfunded', limit: 24 },
    ]);
    expect(await shares.ofDelivery('d2')).toEqual([{ scope: 'owner', key: '0xrich', limit: 16 }]);
  });

  it('reads a paid record once a minute; a share of 0 adds no level', async () => {
    const shares = new WorkShares(parties, config, clock);
    reads.length = 0;
    await shares.ofRun('r1');
    await shares.ofRun('r1');
    expect(reads).toEqual(['owner:0xfresh', 'payer:0xnew']);
    clock.advance(60_001);
    await shares.ofRun('r1');
    expect(reads).toHaveLength(4);
    const off = new WorkShares(
      parties,
      { ...config, workerPartyConcurrency: 0, webhookPartyConcurrency: 0 } as AppConfig,
      clock,
    );
    expect(await off.ofRun('r1')).toEqual([]);
    expect(await off.ofDelivery('d1')).toEqual([]);
  });

  it('a paid owner whose agents stall (silent until the timeout) goes back to the pool: a bought record buys no slots', async () => {
    const shares = new WorkShares(parties, config, clock);
    stalled.add('0xrich');
    expect(await shares.ofRun('r2')).toEqual([
      { scope: 'owner', key: '0xrich', limit: 4 },
      { scope: 'payer', key: '0xspender', limit: 8 },
      { scope: 'pool', key: 'unfunded', limit: 12 },
    ]);
    expect(stallReads.at(-1)).toEqual(['0xrich', { withinMs: 600_000, minMs: 5_000, atLeast: 2 }]);
    // Read again after ten seconds: an owner whose agents answer again gets its share back.
    stalled.delete('0xrich');
    expect((await shares.ofRun('r2'))[0].limit).toBe(4);
    clock.advance(10_001);
    expect((await shares.ofRun('r2'))[0].limit).toBe(8);
  });
});
