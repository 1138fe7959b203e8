import { JsonRpcProvider } from 'ethers';
import { SystemClock } from '@app/common';
import { NonceConflictWatch } from './nonce-conflict';
import { ReceiptWatcher } from './receipt-watcher';

const WALLET = '0x00000000000000000000000000000000000000aa';
const NONCE = 5n;

/**
 * A node whose head moves on each `eth_blockNumber` along `heads`, where the wallet's count at a block
 * is `countAt(block)`, and whose blocks hold `txs`.
 */
function nodeWith(o: {
  heads: number[];
  countAt: (block: number) => number;
  txs?: Record<number, { hash: string; from: string; nonce: string }[]>;
}) {
  let asked = 0;
  const blocksRead: number[] = [];
  const provider = {
    send: async (method: string, params: unknown[]) => {
      if (method === 'eth_blockNumber') return `0x${o.heads[Math.min(asked++, o.heads.length - 1)].toString(16)}`;
      if (method === 'eth_getTransactionCount') return `0x${o.countAt(Number(params[1])).toString(16)}`;
      if (method === 'eth_getBlockByNumber') {
        blocksRead.push(Number(params[0]));
        return { transactions: o.txs?.[Number(params[0])] ?? [] };
      }
      throw new Error(`unexpected ${method}`);
    },
  } as unknown as JsonRpcProvider;
  const watcher = { receipt: async () => null } as unknown as ReceiptWatcher;
  const watch = new NonceConflictWatch({ provider, watcher, clock: new SystemClock(), address: WALLET, pollMs: 1 });
  return { watch, blocksRead };
}

const tx = { txHash: '0xours', nonce: NONCE };
const never = async () => false;

describe('NonceConflictWatch', () => {
  it('names the transaction that used the nonce, read from the first block whose count passed it', async () => {
    const { watch, blocksRead } = nodeWith({
      heads: [40],
      countAt: (b) => (b >= 33 ? 6 : 5),
      txs: {
        33: [
          { hash: '0xSomeone', from: '0x0000000000000000000000000000000000000bb', nonce: '0x5' },
          { hash: '0xTHEIRS', from: WALLET.toUpperCase().replace('0X', '0x'), nonce: '0x5' },
        ],
      },
    });
    expect(await watch.watch(tx, 1_000, never)).toEqual({ kind: 'taken', used: 6n, by: '0xtheirs' });
    expect(blocksRead).toEqual([33]);
  });

  it('follows a nonce held in the pool until it is mined, then reads only the new block', async () => {
    const { watch, blocksRead } = nodeWith({
      heads: [40, 40, 41],
      countAt: (b) => (b >= 41 ? 6 : 5),
      txs: { 41: [{ hash: '0xtheirs', from: WALLET, nonce: '0x5' }] },
    });
    expect(await watch.watch(tx, 1_000, never)).toEqual({ kind: 'taken', used: 6n, by: '0xtheirs' });
    expect(blocksRead).toEqual([41]);
  });

  it('gives no name when the nonce was used before the blocks it searches, or no transaction of the wallet is found', async () => {
    const old = nodeWith({ heads: [40], countAt: () => 6 });
    expect(await old.watch.watch(tx, 1_000, never)).toEqual({ kind: 'taken', used: 6n, by: null });
    expect(old.blocksRead).toEqual([]);
    const missing = nodeWith({ heads: [40], countAt: (b) => (b >= 33 ? 6 : 5), txs: { 33: [] } });
    expect(await missing.watch.watch(tx, 1_000, never)).toEqual({ kind: 'taken', used: 6n, by: null });
  });

  it('stops when its transaction, offered again, is taken into the pool, or when its time is up', async () => {
    const accepted = nodeWith({ heads: [40], countAt: () => 5 });
    expect(await accepted.watch.watch(tx, 5_000, async () => true)).toEqual({ kind: 'accepted' });
    const waiting = nodeWith({ heads: [40], countAt: () => 5 });
    expect(await waiting.watch.watch(tx, 50, never)).toEqual({ kind: 'undecided' });
  });
});
