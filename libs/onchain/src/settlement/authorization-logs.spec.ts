import { id, toBeHex, TransactionReceipt, zeroPadValue } from 'ethers';
import { carriesAuthorization, isCancellation, nonceSpentTopics } from './authorization-logs';
import { SettleRequest } from './settlement.adapter';

const TOKEN = '0x' + '11'.repeat(20);
const OTHER = '0x' + '22'.repeat(20);
const payer = '0x' + 'aa'.repeat(20);
const us = '0x' + 'bb'.repeat(20);
const sink = '0x' + 'cc'.repeat(20);
const nonce = '0x' + '33'.repeat(32);
const word = (a: string) => zeroPadValue(a, 32);
const req = { payer, payTo: us, value: 11_000n, nonce } as SettleRequest;

const used = (address = TOKEN) => ({
  address,
  topics: [id('AuthorizationUsed(address,bytes32)'), word(payer), nonce],
  data: '0x',
});
const transfer = (to: string, value: bigint, address = TOKEN) => ({
  address,
  topics: [id('Transfer(address,address,uint256)'), word(payer), word(to)],
  data: toBeHex(value, 32),
});
const receipt = (...logs: object[]) => ({ logs }) as unknown as TransactionReceipt;

describe('carriesAuthorization', () => {
  it('is true for the AuthorizationUsed followed by the Transfer of its terms, among other logs of a batch', () => {
    const batch = receipt(
      transfer(us, 5n),
      { address: OTHER, topics: [id('SettlementFailed(uint256)')], data: '0x' },
      used(),
      transfer(us, 11_000n),
    );
    expect(carriesAuthorization(batch, TOKEN, req)).toBe(true);
  });

  it('is false for another authorization of the payer with the same nonce (to another wallet, or another value)', () => {
    expect(carriesAuthorization(receipt(used(), transfer(sink, 1n)), TOKEN, req)).toBe(false);
    expect(carriesAuthorization(receipt(used(), transfer(us, 1n)), TOKEN, req)).toBe(false);
  });

  it('is false for logs of another contract, or a transfer that is not the next log of the token', () => {
    expect(carriesAuthorization(receipt(used(OTHER), transfer(us, 11_000n, OTHER)), TOKEN, req)).toBe(false);
    expect(carriesAuthorization(receipt(used(), transfer(sink, 1n), transfer(us, 11_000n)), TOKEN, req)).toBe(false);
    expect(carriesAuthorization(receipt(used()), TOKEN, req)).toBe(false);
  });
});

describe('nonceSpentTopics / isCancellation', () => {
  it('filters on either log of the nonce, and tells a cancellation apart', () => {
    const [kinds, who, which] = nonceSpentTopics(req);
    expect(kinds).toEqual([id('AuthorizationUsed(address,bytes32)'), id('AuthorizationCanceled(address,bytes32)')]);
    expect([who, which]).toEqual([word(payer), nonce]);
    expect(isCancellation({ topics: [id('AuthorizationCanceled(address,bytes32)'), word(payer), nonce] })).toBe(true);
    expect(isCancellation(used())).toBe(false);
  });
});
