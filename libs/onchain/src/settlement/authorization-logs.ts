import { id, TransactionReceipt, zeroPadValue } from 'ethers';
import { SettleRequest } from './settlement.adapter';

const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');
/** USDC's cancelAuthorization: the nonce is used and nothing moved. */
const AUTHORIZATION_CANCELED = id('AuthorizationCanceled(address,bytes32)');
const TRANSFER = id('Transfer(address,address,uint256)');

const word = (address: string) => zeroPadValue(address.toLowerCase(), 32).toLowerCase();

/** The topics of the token's AuthorizationUsed(payer, nonce) log: one per authorization nonce, ever. */
export function authorizationUsedTopics(p: Pick<SettleRequest, 'payer' | 'nonce'>): string[] {
  return [AUTHORIZATION_USED, word(p.payer), p.nonce.toLowerCase()];
}

/** A log filter for what used the nonce: its AuthorizationUsed or its AuthorizationCanceled (one of them, once). */
export function nonceSpentTopics(p: Pick<SettleRequest, 'payer' | 'nonce'>): (string | string[])[] {
  return [[AUTHORIZATION_USED, AUTHORIZATION_CANCELED], word(p.payer), p.nonce.toLowerCase()];
}

/** The nonce's log is a cancellation: nothing moved with it. */
export const isCancellation = (log: { topics: readonly string[] }): boolean =>
  log.topics[0]?.toLowerCase() === AUTHORIZATION_CANCELED;

/**
 * Whether the transaction of `receipt` carried this very authorization: the token's AuthorizationUsed
 * (payer, nonce) followed, among the token's logs, by the Transfer of its terms (payer to payTo, value).
 * EIP-3009 nonces are unique per signer, not per authorization: the payer can sign another one with the
 * same nonce (to itself, for 1 wei) and relay it first. That one used the nonce and moved nothing to us.
 */
export function carriesAuthorization(receipt: TransactionReceipt, token: string, p: SettleRequest): boolean {
  const logs = receipt.logs.filter((l) => l.address.toLowerCase() === token.toLowerCase());
  const used = authorizationUsedTopics(p);
  const transfer = [TRANSFER, word(p.payer), word(p.payTo)];
  return logs.some(
    (l, i) =>
      used.every((t, k) => l.topics[k]?.toLowerCase() === t) &&
      logs[i + 1] !== undefined &&
      transfer.every((t, k) => logs[i + 1].topics[k]?.toLowerCase() === t) &&
      BigInt(logs[i + 1].data) === p.value,
  );
}
