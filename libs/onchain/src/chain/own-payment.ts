import { AbiCoder, id, JsonRpcProvider, Transaction, zeroPadValue } from 'ethers';
import { MinedReceipt, ReceiptWatcher } from './receipt-watcher';

const TRANSFER_EVENT = id('Transfer(address,address,uint256)');
const TRANSFER_CALL = '0xa9059cbb';

/**
 * Whether `by`, the transaction that used the nonce of our signed transfer `tx`, is that payment itself: the same
 * call (a wallet's "speed up" of it: same nonce, `to` and calldata, a higher fee), or a receipt with the same token
 * Transfer (hot wallet → recipient, amount). Its receipt then (the payment's transaction); 'other': not this payment;
 * null: it cannot be told now (`by` not found, or its receipt or transaction not readable): never signed again on doubt.
 */
export async function samePayment(
  provider: JsonRpcProvider,
  watcher: ReceiptWatcher,
  tx: { txHash: string; signedTx: string },
  by: string | undefined,
): Promise<MinedReceipt | 'other' | null> {
  if (!by || by === tx.txHash) return null;
  try {
    const ours = Transaction.from(tx.signedTx);
    const [receipt, theirs] = await Promise.all([
      watcher.receipt(by),
      provider.send('eth_getTransactionByHash', [by]) as Promise<{ to?: string | null; input?: string } | null>,
    ]);
    if (!receipt || !theirs) return null;
    const token = ours.to!.toLowerCase();
    const data = ours.data.toLowerCase();
    if (theirs.to?.toLowerCase() === token && theirs.input?.toLowerCase() === data) return receipt;
    if (!data.startsWith(TRANSFER_CALL)) return 'other';
    const [recipient, amount] = AbiCoder.defaultAbiCoder().decode(['address', 'uint256'], `0x${data.slice(10)}`);
    const topics = [TRANSFER_EVENT, zeroPadValue(ours.from!, 32), zeroPadValue(recipient as string, 32)];
    const paid = receipt.logs.some(
      (l) =>
        l.address.toLowerCase() === token &&
        topics.every((t, i) => l.topics[i]?.toLowerCase() === t.toLowerCase()) &&
        BigInt(l.data) === (amount as bigint),
    );
    return paid ? receipt : 'other';
  } catch {
    return null;
  }
}
