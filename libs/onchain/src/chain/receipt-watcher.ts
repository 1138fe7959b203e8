import { JsonRpcProvider, toBeHex } from 'ethers';
import { Clock } from '@app/common';

/** What the sender needs of a receipt: outcome, where, cost, and the logs (which authorizations a batch used). */
export interface MinedReceipt {
  hash: string;
  status: 0 | 1;
  blockNumber: bigint;
  gasUsed: bigint;
  logs: { address: string; topics: string[]; data: string }[];
}

interface Waiter {
  resolve: (r: MinedReceipt | null) => void;
  deadline: number;
  /** When this hash was last asked for on its own (the fallback for blocks the scan skipped). */
  checkedAt: number;
}

/** Up to this many awaited transactions are asked for directly (one JSON-RPC batch); more, and blocks are scanned. */
const FEW = 64;
/** Blocks scanned by number per tick; a longer gap (a pause, a restart) falls back to asking per hash. */
const MAX_SCAN = 16;
/** A waiter not found by the block scan for this long is also asked for on its own. */
const FALLBACK_MS = 1_000;

/**
 * One block subscription for every transaction a process waits on, instead of one poller per
 * request: while anything is awaited it polls `eth_blockNumber` at the block rate (EVM_POLL_MS)
 * and reads each new block's receipts with one `eth_getBlockReceipts`, resolving the waiters
 * whose hashes are in it (with only a few waiters, their receipts are asked for directly). `kick()` after a broadcast reads at once and then
 * again after 5, 10, 20, 40 and 80 ms, so on an automining chain the answer comes without waiting for the next poll. Register a hash before broadcasting it.
 */
export class ReceiptWatcher {
  private readonly waiters = new Map<string, Waiter[]>();
  private lastBlock: bigint | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  /** Ticks since the last broadcast: right after one the chain is read again soon (5, 10, 20 ms...), then at the block rate. */
  private sinceKick = Number.POSITIVE_INFINITY;

  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly pollMs: number,
    private readonly clock: Clock,
  ) {}

  /** Resolves with the receipt once mined, or null after `timeoutMs`. */
  wait(hash: string, timeoutMs: number): Promise<MinedReceipt | null> {
    const key = hash.toLowerCase();
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      const now = this.clock.nowMs();
      list.push({ resolve, deadline: now + timeoutMs, checkedAt: now });
      this.waiters.set(key, list);
      this.schedule(this.pollMs);
    });
  }

  /** Stops waiting for `hash` (decided otherwise): its waiters get null at once. */
  forget(hash: string): void {
    const key = hash.toLowerCase();
    const list = this.waiters.get(key) ?? [];
    this.waiters.delete(key);
    for (const w of list) w.resolve(null);
  }

  /** Reads the chain now (after a broadcast). */
  kick(): void {
    this.sinceKick = 0;
    this.schedule(0);
  }

  /** Asks for one receipt directly (recovery of a transaction sent before this process started). */
  async receipt(hash: string): Promise<MinedReceipt | null> {
    const raw = await this.provider.send('eth_getTransactionReceipt', [hash]);
    return raw ? toReceipt(raw) : null;
  }

  private schedule(ms: number): void {
    if (this.ticking) {
      if (ms === 0) this.again = true;
      return;
    }
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.waiters.size === 0) {
      this.lastBlock = null; // idle: the next wait starts from the head again
      return;
    }
    this.ticking = true;
    try {
      if (this.waiters.size <= FEW) {
        // Not many transactions: ask for each receipt at once, one round trip (one JSON-RPC batch).
        const receipts = await Promise.all([...this.waiters.keys()].map((hash) => this.receipt(hash)));
        for (const r of receipts) if (r) this.settle(r);
        this.lastBlock = null;
        return;
      }
      const head = BigInt(await this.provider.send('eth_blockNumber', []));
      const from = this.lastBlock === null ? head : this.lastBlock + 1n;
      const blocks: bigint[] = [];
      for (let b = from > head - BigInt(MAX_SCAN) ? from : head - BigInt(MAX_SCAN) + 1n; b <= head; b++) blocks.push(b);
      // Asked together: the provider sends calls made in one tick as one JSON-RPC batch.
      const all = await Promise.all(
        blocks.map((b) => this.provider.send('eth_getBlockReceipts', [toBeHex(b)]) as Promise<unknown[] | null>),
      );
      for (const receipts of all) for (const raw of receipts ?? []) this.settle(toReceipt(raw));
      this.lastBlock = head;
      await this.fallback();
    } catch {
      // The node is unreachable for now: the waiters keep waiting until their deadline.
    } finally {
      this.ticking = false;
      this.expire();
      const soon = this.sinceKick < 5 ? 5 * 2 ** this.sinceKick++ : this.pollMs;
      if (this.waiters.size > 0) this.schedule(this.again ? 0 : Math.min(soon, this.pollMs));
      this.again = false;
    }
  }

  /** Hashes the scan has not found for a while are asked for one by one (a skipped block, a hash mined before it was registered). */
  private async fallback(): Promise<void> {
    const now = this.clock.nowMs();
    const stale = [...this.waiters.entries()]
      .filter(([, list]) => list.some((w) => now - w.checkedAt >= FALLBACK_MS))
      .slice(0, 50);
    await Promise.all(
      stale.map(async ([hash, list]) => {
        for (const w of list) w.checkedAt = now;
        const r = await this.receipt(hash);
        if (r) this.settle(r);
      }),
    );
  }

  private settle(r: MinedReceipt): void {
    const list = this.waiters.get(r.hash);
    if (!list) return;
    this.waiters.delete(r.hash);
    for (const w of list) w.resolve(r);
  }

  private expire(): void {
    const now = this.clock.nowMs();
    for (const [hash, list] of this.waiters) {
      const left = list.filter((w) => (w.deadline <= now ? (w.resolve(null), false) : true));
      if (left.length === 0) this.waiters.delete(hash);
      else this.waiters.set(hash, left);
    }
  }
}

function toReceipt(raw: unknown): MinedReceipt {
  const r = raw as {
    transactionHash: string;
    status: string;
    blockNumber: string;
    gasUsed: string;
    logs: { address: string; topics: string[]; data: string }[];
  };
  return {
    hash: r.transactionHash.toLowerCase(),
    status: BigInt(r.status) === 1n ? 1 : 0,
    blockNumber: BigInt(r.blockNumber),
    gasUsed: BigInt(r.gasUsed),
    logs: r.logs.map((l) => ({
      address: l.address.toLowerCase(),
      topics: l.topics.map((t) => t.toLowerCase()),
      data: l.data,
    })),
  };
}
