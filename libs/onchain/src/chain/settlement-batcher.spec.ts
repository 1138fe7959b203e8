import { id as eventTopic, Wallet, zeroPadValue } from 'ethers';
import { SettleRequest, SettlementUndecided } from '../settlement/settlement.adapter';
import { ChainSender } from './chain-sender';
import { SettlementBatcher, SettlementNotMinedError } from './settlement-batcher';

const TOKEN = '0x' + '11'.repeat(20);
const USED = eventTopic('AuthorizationUsed(address,bytes32)');

function request(signature: string, n: number): SettleRequest {
  const payer = Wallet.createRandom().address;
  return {
    x402Version: 2,
    network: 'base-sepolia',
    chainId: 84532,
    asset: TOKEN,
    payer,
    payTo: payer,
    value: 1n,
    validAfter: 0n,
    validBefore: 9n ** 10n,
    nonce: zeroPadValue(`0x0${n}`, 32),
    signature,
  };
}

/** A batcher over `sender`: through the batch contract (`batched`) or one transaction per settlement. */
function batcherOf(
  sender: ChainSender,
  o: { batched: boolean; maxBatch: number; windowMs: number; minBatch?: number },
) {
  const batcher = o.batched ? '0x' + '44'.repeat(20) : null;
  return new SettlementBatcher(sender, { token: TOKEN, batcher, minBatch: 1, ...o, bindHash: async () => undefined });
}

describe('SettlementBatcher', () => {
  it('an authorization that cannot be encoded fails alone; the one beside it is sent and settles', async () => {
    const calls: { data: string }[] = [];
    const good = request(`0x${'22'.repeat(32)}${'33'.repeat(32)}1b`, 1);
    const sender = {
      submit: async (call: { data: string }) => (calls.push(call), { id: 'ctx_1', txHash: '0xabc' }),
      confirm: async () => ({
        state: 'mined',
        receipt: { logs: [{ address: TOKEN, topics: [USED, zeroPadValue(good.payer.toLowerCase(), 32), good.nonce] }] },
      }),
    } as unknown as ChainSender;
    const batcher = batcherOf(sender, { batched: false, maxBatch: 10, windowMs: 0 });
    const [bad, ok] = await Promise.allSettled([batcher.settle(request('0x1234', 2)), batcher.settle(good)]);
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.any(SettlementNotMinedError) });
    expect(ok).toEqual({ status: 'fulfilled', value: { txHash: '0xabc' } });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['not mined within the wait', async () => ({ state: 'pending' })],
    [
      'its receipt unreadable',
      async () => {
        throw new Error('node unreachable');
      },
    ],
  ])('a transaction sent and %s: undecided (its hash), never a failure', async (_what, confirm) => {
    const sender = { submit: async () => ({ id: 'ctx_1', txHash: '0xabc' }), confirm } as unknown as ChainSender;
    const batcher = batcherOf(sender, { batched: false, maxBatch: 10, windowMs: 0 });
    const [out] = await Promise.allSettled([batcher.settle(request(`0x${'22'.repeat(32)}${'33'.repeat(32)}1b`, 3))]);
    expect(out).toMatchObject({ status: 'rejected', reason: expect.any(SettlementUndecided) });
    expect((out as PromiseRejectedResult).reason.txHash).toBe('0xabc');
  });

  it('while a transaction is in flight the next settlements gather into one batch, sent once it is decided', async () => {
    const sig = `0x${'22'.repeat(32)}${'33'.repeat(32)}1b`;
    const reqs = [1, 2, 3, 4].map((n) => request(sig, n));
    const sent: { items?: number }[] = [];
    const decisions: (() => void)[] = [];
    const usedLogs = reqs.map((r) => ({
      address: TOKEN,
      topics: [USED, zeroPadValue(r.payer.toLowerCase(), 32), r.nonce],
    }));
    const sender = {
      submit: async (call: { items?: number }) => (sent.push(call), { id: `ctx_${sent.length}`, txHash: '0xabc' }),
      // Each transaction is decided when the test says so.
      confirm: () =>
        new Promise((resolve) => decisions.push(() => resolve({ state: 'mined', receipt: { logs: usedLogs } }))),
    } as unknown as ChainSender;
    const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 60_000 });
    // Alone, with nothing in flight: sent at once.
    const first = batcher.settle(reqs[0]);
    await until(() => decisions.length === 1);
    expect(sent.map((c) => c.items ?? 1)).toEqual([1]);
    // Three more while it is in flight: they wait for its decision (not for the 60 s window), then go as one batch.
    const rest = reqs.slice(1).map((r) => batcher.settle(r));
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(1);
    decisions[0]();
    await until(() => decisions.length === 2);
    expect(sent.map((c) => c.items ?? 1)).toEqual([1, 3]);
    decisions[1]();
    expect(await Promise.all([first, ...rest])).toEqual(Array(4).fill({ txHash: '0xabc' }));
  });

  it('a transaction whose nonce another used: its settlements go out again, each at most three more times', async () => {
    const sig = `0x${'22'.repeat(32)}${'33'.repeat(32)}1b`;
    const [a, b] = [request(sig, 1), request(sig, 2)];
    const logs = [a, b].map((r) => ({
      address: TOKEN,
      topics: [USED, zeroPadValue(r.payer.toLowerCase(), 32), r.nonce],
    }));
    const outcomes = ['dropped', 'dropped', 'dropped', 'mined'];
    let sent = 0;
    const sender = {
      submit: async () => ({ id: `ctx_${++sent}`, txHash: `0x${sent}` }),
      confirm: async () => ({ state: outcomes.shift(), receipt: { logs } }),
    } as unknown as ChainSender;
    const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 0 });
    expect(await Promise.all([batcher.settle(a), batcher.settle(b)])).toEqual([{ txHash: '0x4' }, { txHash: '0x4' }]);
    // Dropped a fourth time: no more resends, it fails (the payment's retry asks the chain first).
    outcomes.push('dropped', 'dropped', 'dropped', 'dropped');
    const last = await batcher.settle(request(sig, 3)).catch((e: unknown) => e);
    expect(last).toBeInstanceOf(SettlementNotMinedError);
    expect(sent).toBe(8);
  });

  it('a group reaching EVM_BATCH_MAX leaves without waiting for the transaction in flight', async () => {
    const sig = `0x${'22'.repeat(32)}${'33'.repeat(32)}1b`;
    const sent: { items?: number }[] = [];
    const sender = {
      submit: async (call: { items?: number }) => (sent.push(call), { id: `ctx_${sent.length}`, txHash: '0xabc' }),
      confirm: () => new Promise(() => undefined), // never decided
    } as unknown as ChainSender;
    const batcher = batcherOf(sender, { batched: true, maxBatch: 2, windowMs: 60_000 });
    void batcher.settle(request(sig, 1));
    await until(() => sent.length === 1);
    void batcher.settle(request(sig, 2));
    void batcher.settle(request(sig, 3));
    await until(() => sent.length === 2);
    expect(sent.map((c) => c.items ?? 1)).toEqual([1, 2]);
  });

  describe('EVM_BATCH_MIN', () => {
    const sig = `0x${'22'.repeat(32)}${'33'.repeat(32)}1b`;
    /** A sender whose transactions are decided when the test says so. */
    const controlled = () => {
      const sent: { items?: number }[] = [];
      const decisions: (() => void)[] = [];
      const sender = {
        submit: async (call: { items?: number }) => (sent.push(call), { id: `ctx_${sent.length}`, txHash: '0xabc' }),
        confirm: () => new Promise((resolve) => decisions.push(() => resolve({ state: 'pending' }))),
      } as unknown as ChainSender;
      return { sent, decisions, sender };
    };
    const settle = (b: SettlementBatcher, n: number) => void b.settle(request(sig, n)).catch(() => undefined);

    it('under load a group gathers until it holds the minimum, even with nothing in flight', async () => {
      const { sent, decisions, sender } = controlled();
      const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 60_000, minBatch: 3 });
      settle(batcher, 1);
      settle(batcher, 2);
      await until(() => decisions.length === 1);
      decisions[0]();
      // The last group was two: settlements arrive faster than they leave. Nothing is in flight, yet two wait for a third.
      settle(batcher, 3);
      settle(batcher, 4);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      expect(sent.map((c) => c.items ?? 1)).toEqual([2]);
      settle(batcher, 5);
      await until(() => sent.length === 2);
      expect(sent.map((c) => c.items ?? 1)).toEqual([2, 3]);
    });

    it('under load, a settlement arriving slower than the window leaves at once: nobody is coming to join it', async () => {
      const { sent, decisions, sender } = controlled();
      const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 60, minBatch: 8 });
      settle(batcher, 1);
      settle(batcher, 2);
      await until(() => decisions.length === 1);
      decisions[0]();
      // The input, not a wait for a condition: the next settlement comes 300 ms later (three in the last
      // second: 0.18 expected within the 60 ms window).
      await new Promise((r) => setTimeout(r, 300));
      settle(batcher, 3);
      await until(() => sent.length === 2);
      expect(sent.map((c) => c.items ?? 1)).toEqual([2, 1]);
    });

    it('bursts that arrive together leave together: a burst does not wait the window for the next one', async () => {
      const { sent, decisions, sender } = controlled();
      const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 60, minBatch: 8 });
      for (const n of [1, 2, 3]) settle(batcher, n);
      await until(() => decisions.length === 1);
      decisions[0]();
      // The input: the next burst of three 400 ms later (six in the last second: 0.36 expected within 60 ms).
      await new Promise((r) => setTimeout(r, 400));
      for (const n of [4, 5, 6]) settle(batcher, n);
      await until(() => sent.length === 2);
      expect(sent.map((c) => c.items ?? 1)).toEqual([3, 3]);
    });

    it('a settlement alone, with none before it, leaves at once; under load none waits past the window', async () => {
      const { sent, decisions, sender } = controlled();
      const batcher = batcherOf(sender, { batched: true, maxBatch: 10, windowMs: 250, minBatch: 8 });
      settle(batcher, 1);
      await until(() => sent.length === 1);
      expect(sent.map((c) => c.items ?? 1)).toEqual([1]);
      decisions[0]();
      // The last group was one: the next alone leaves at once too.
      settle(batcher, 2);
      await until(() => sent.length === 2);
      decisions[1]();
      settle(batcher, 3);
      settle(batcher, 4);
      await until(() => sent.length === 3);
      decisions[2]();
      // Under load now (the last group was two, five in the last second: one expected within 250 ms):
      // a lone settlement waits for company, but only the window.
      const asked = Date.now();
      settle(batcher, 5);
      await untilTime(() => sent.length === 4, 5_000);
      expect(sent.map((c) => c.items ?? 1)).toEqual([1, 1, 2, 1]);
      expect(Date.now() - asked).toBeGreaterThanOrEqual(200);
    });
  });
});

/** Resolves once `done()` holds, checking after each turn of the event loop (bounded). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition not reached');
}

/** Resolves once `done()` holds, checking every 5 ms for at most `ms`. */
async function untilTime(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
  if (!done()) throw new Error('condition not reached');
}
