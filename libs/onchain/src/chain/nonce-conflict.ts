import { JsonRpcProvider } from 'ethers';
import { Clock } from '@app/common';
import { MinedReceipt, ReceiptWatcher } from './receipt-watcher';

/** Blocks searched for the transaction that took a nonce, when the watch did not see the block it came in. */
const NONCE_SEARCH = 16;
/** A refused transaction is offered to the node again this often while the conflict lasts (the other may leave the pool). */
const OFFER_AGAIN_MS = 1_000;

/** How a nonce conflict ended. */
export type ConflictEnd =
  /** The transaction itself was mined after all. */
  | { kind: 'mined'; receipt: MinedReceipt }
  /** Its nonce is used (`used`: the wallet's count then); `by`: the transaction that used it, null when not found. */
  | { kind: 'taken'; used: bigint; by: string | null }
  /** Offered again, the node took it into its pool: the receipt wait decides. */
  | { kind: 'accepted' }
  | { kind: 'undecided' };

const hex = (n: bigint) => `0x${n.toString(16)}`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Follows a transaction the node refused because another transaction holds its nonce (one sent from
 * the hot wallet outside agora, mined or still pending), at the block rate, until the chain decides
 * the nonce: mined by this transaction, or by another, whose hash is read from the block it came in.
 * That hash is the proof that this one can never land (a nonce is used once), which is what allows
 * its call to be signed again; a count alone is not (a node behind a load balancer can lag).
 */
export class NonceConflictWatch {
  private readonly wallet: string;

  constructor(
    private readonly o: {
      provider: JsonRpcProvider;
      watcher: ReceiptWatcher;
      clock: Clock;
      address: string;
      pollMs: number;
    },
  ) {
    this.wallet = o.address.toLowerCase();
  }

  /** Watches `tx` for at most `timeoutMs`; `offerAgain` broadcasts it again and answers whether the node took it. */
  async watch(
    tx: { txHash: string; nonce: bigint },
    timeoutMs: number,
    offerAgain: () => Promise<boolean>,
  ): Promise<ConflictEnd> {
    const deadline = this.o.clock.nowMs() + timeoutMs;
    let offered = this.o.clock.nowMs();
    let before: bigint | null = null;
    for (;;) {
      const receipt = await this.o.watcher.receipt(tx.txHash);
      if (receipt) return { kind: 'mined', receipt };
      const head = BigInt(await this.o.provider.send('eth_blockNumber', []));
      const used = await this.count(head);
      if (used > tx.nonce) return { kind: 'taken', used, by: await this.holder(tx.nonce, head, before) };
      before = head;
      const now = this.o.clock.nowMs();
      if (now >= deadline) return { kind: 'undecided' };
      if (now - offered >= OFFER_AGAIN_MS) {
        offered = now;
        if (await offerAgain()) return { kind: 'accepted' };
      }
      await sleep(Math.min(this.o.pollMs, deadline - now));
    }
  }

  /** The wallet's transaction count at `tag` (a block number, or 'latest' / 'pending'). */
  async count(tag: bigint | 'latest' | 'pending'): Promise<bigint> {
    const at = typeof tag === 'bigint' ? hex(tag) : tag;
    return BigInt(await this.o.provider.send('eth_getTransactionCount', [this.o.address, at]));
  }

  /** The hash of the wallet's transaction with `nonce`, mined within the last NONCE_SEARCH blocks (null: not found). */
  async holderNow(nonce: bigint): Promise<string | null> {
    return this.holder(nonce, BigInt(await this.o.provider.send('eth_blockNumber', [])), null);
  }

  /**
   * The hash of the wallet's transaction with `nonce`, mined after block `before` (null: not known) and
   * by `head`: the block is the first whose count passed `nonce` (one batch of counts, at most
   * NONCE_SEARCH blocks back), then read whole. Null when it is not found there.
   */
  private async holder(nonce: bigint, head: bigint, before: bigint | null): Promise<string | null> {
    let block = head;
    if (before === null || head - before > 1n) {
      let lo = head - BigInt(NONCE_SEARCH);
      if (before !== null && before > lo) lo = before;
      if (lo < 0n) lo = 0n;
      const blocks: bigint[] = [];
      for (let b = lo; b <= head; b++) blocks.push(b);
      const counts = await Promise.all(blocks.map((b) => this.count(b)));
      const first = counts.findIndex((c) => c > nonce);
      if (first <= 0) return null; // used before the window (or the node disagrees with itself)
      block = blocks[first];
    }
    const full = (await this.o.provider.send('eth_getBlockByNumber', [hex(block), true])) as {
      transactions?: { hash: string; from?: string; nonce: string }[];
    } | null;
    const found = full?.transactions?.find(
      (t) => typeof t === 'object' && t.from?.toLowerCase() === this.wallet && BigInt(t.nonce) === nonce,
    );
    return found ? found.hash.toLowerCase() : null;
  }
}
