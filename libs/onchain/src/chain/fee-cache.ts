import { JsonRpcProvider } from 'ethers';
import { Clock } from '@app/common';

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * EIP-1559 fees for the next transactions, read once per block interval (at most every `ttlMs`)
 * instead of per send: max fee = 2 x the latest base fee + the node's suggested tip, which
 * stays valid through several blocks of rising base fee. One read in flight is shared.
 */
export class FeeCache {
  private cached: { at: number; fees: Fees } | null = null;
  private inflight: Promise<Fees> | null = null;

  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  fees(): Promise<Fees> {
    if (this.cached && this.clock.nowMs() - this.cached.at < this.ttlMs) return Promise.resolve(this.cached.fees);
    this.inflight ??= this.read().finally(() => (this.inflight = null));
    return this.inflight;
  }

  /** After a node refused a fee as too low: the next send reads again. */
  invalidate(): void {
    this.cached = null;
  }

  private async read(): Promise<Fees> {
    const [block, tip] = await Promise.all([
      this.provider.send('eth_getBlockByNumber', ['latest', false]) as Promise<{ baseFeePerGas?: string }>,
      this.provider.send('eth_maxPriorityFeePerGas', []).catch(() => '0x0') as Promise<string>,
    ]);
    const base = BigInt(block.baseFeePerGas ?? 0);
    const maxPriorityFeePerGas = BigInt(tip);
    const fees = { maxFeePerGas: base * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas };
    this.cached = { at: this.clock.nowMs(), fees };
    return fees;
  }
}
