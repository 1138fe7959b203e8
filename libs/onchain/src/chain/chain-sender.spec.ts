import { JsonRpcProvider, Wallet } from 'ethers';
import { FaultInjector, SystemClock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { ChainSender } from './chain-sender';
import { ChainTxRow, ChainTxsRepository } from './chain-txs.repository';

/** A node that says the wallet's nonce 5 is used, has no receipt for our transaction, and answers `lookup` for the transaction itself. */
function senderWith(lookup: unknown, kind: ChainTxRow['kind'] = 'transfer') {
  const key = Wallet.createRandom().privateKey;
  const row: ChainTxRow = {
    id: 'ctx_1',
    wallet: new Wallet(key).address.toLowerCase(),
    nonce: 4n,
    kind,
    items: 1,
    txHash: '0xaa',
    signedTx: '0x02',
    status: 'signed',
  };
  const finished: string[] = [];
  const provider = {
    send: async (method: string) =>
      ({
        eth_getTransactionCount: '0x5',
        eth_getTransactionReceipt: null,
        eth_getTransactionByHash: lookup,
        eth_blockNumber: '0x10',
      })[method as 'eth_getTransactionCount'],
  } as unknown as JsonRpcProvider;
  const repository = {
    get: async () => ({ ...row }),
    finish: async (_id: string, status: string) => (finished.push(status), true),
    postpone: async () => undefined,
    raiseNonce: async () => undefined,
  } as unknown as ChainTxsRepository;
  const sender = new ChainSender({
    provider,
    privateKey: key,
    chainId: 84532,
    transactions: {} as TransactionRunner,
    repository,
    faults: new FaultInjector(),
    clock: new SystemClock(),
    pollMs: 1_000_000,
    receiptTimeoutMs: 10,
    resendAfterMs: 1_000,
  });
  return { sender, finished };
}

describe('ChainSender.resolve on a consumed nonce', () => {
  it('a transaction the node still knows (a pool, or a backend whose receipts lag) stays pending: never dropped, so never signed again', async () => {
    for (const lookup of [
      { hash: '0xaa', blockNumber: null },
      { hash: '0xaa', blockNumber: '0x9' },
    ]) {
      const { sender, finished } = senderWith(lookup);
      expect((await sender.resolve('ctx_1')).state).toBe('pending');
      expect(finished).toEqual([]);
    }
  });

  it('a settlement the node does not know at all is dropped, and recorded so', async () => {
    const { sender, finished } = senderWith(null, 'settlement');
    expect((await sender.resolve('ctx_1')).state).toBe('dropped');
    expect(finished).toEqual(['dropped']);
  });

  it('a transfer the node does not know, whose nonce holder is not found (it may be its speed-up), stays pending', async () => {
    const { sender, finished } = senderWith(null);
    expect((await sender.resolve('ctx_1')).state).toBe('pending');
    expect(finished).toEqual([]);
  });
});
