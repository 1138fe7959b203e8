import { SigningKey, Transaction } from 'ethers';
import { ChainTxKind } from './chain-tx.entity';

export interface ChainCall {
  kind: ChainTxKind;
  to: string;
  data: string;
  gasLimit: bigint;
  /** Settlements carried (a batch). */
  items?: number;
}

/** `call` as an EIP-1559 transaction with `nonce` and `fees`, signed locally with the hot wallet's key. */
export function signCall(
  key: SigningKey,
  chainId: number,
  call: ChainCall,
  nonce: bigint,
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): { raw: string; hash: string } {
  const tx = Transaction.from({
    type: 2,
    chainId,
    nonce: Number(nonce),
    to: call.to,
    data: call.data,
    value: 0n,
    gasLimit: call.gasLimit,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  tx.signature = key.sign(tx.unsignedHash);
  return { raw: tx.serialized, hash: tx.hash!.toLowerCase() };
}
