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
    const batcher = new SettlementBatcher(sender, {
      token: TOKEN,
      batcher: null,
      maxBatch: 10,
      bindHash: async () => undefined,
    });
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
    const batcher = new SettlementBatcher(sender, {
      token: TOKEN,
      batcher: null,
      maxBatch: 10,
      bindHash: async () => undefined,
    });
    const [out] = await Promise.allSettled([batcher.settle(request(`0x${'22'.repeat(32)}${'33'.repeat(32)}1b`, 3))]);
    expect(out).toMatchObject({ status: 'rejected', reason: expect.any(SettlementUndecided) });
    expect((out as PromiseRejectedResult).reason.txHash).toBe('0xabc');
  });
});
