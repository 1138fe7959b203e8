import { VerifiedPayment } from '@app/x402';
import { toSettleRequest, unsavedReservation } from './payment-rows';

const verified: VerifiedPayment = {
  x402Version: 2,
  network: 'eip155:84532',
  chainId: 84532,
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  assetName: 'USDC',
  payer: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
  payTo: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  nonce: `0x${'ab'.repeat(32)}`,
  value: 11_000n,
  validAfter: 1_700_000_000n,
  validBefore: 1_700_000_300n,
  signature: `0x${'cd'.repeat(65)}`,
  headerHash: 'h'.repeat(64),
};

describe('payment rows', () => {
  it('a reservation is the verified authorization, its addresses lower case, reserved and not yet settled', () => {
    const row = unsavedReservation(verified, 'execution', 'pay_1');
    expect({ ...row }).toEqual({
      id: 'pay_1',
      x402Version: 2,
      network: 'eip155:84532',
      chainId: 84532,
      asset: verified.asset.toLowerCase(),
      payer: verified.payer.toLowerCase(),
      payTo: verified.payTo.toLowerCase(),
      nonce: verified.nonce,
      value: 11_000n,
      validAfter: 1_700_000_000n,
      validBefore: 1_700_000_300n,
      signature: verified.signature,
      headerHash: verified.headerHash,
      purpose: 'execution',
      refId: null,
      status: 'reserved',
      txHash: null,
      settleAttempts: 0,
      nextAttemptAt: null,
      lastError: null,
      settledAt: null,
    });
  });

  it('the settle request carries the authorization exactly, and the hash once one was bound', () => {
    const row = unsavedReservation(verified, 'registration', 'pay_2');
    const request = toSettleRequest(row);
    expect(request).toEqual({
      paymentId: 'pay_2',
      x402Version: 2,
      network: 'eip155:84532',
      chainId: 84532,
      asset: row.asset,
      payer: row.payer,
      payTo: row.payTo,
      value: 11_000n,
      validAfter: 1_700_000_000n,
      validBefore: 1_700_000_300n,
      nonce: verified.nonce,
      signature: verified.signature,
      txHash: null,
    });
    expect(toSettleRequest({ ...row, txHash: '0xfeed' }).txHash).toBe('0xfeed');
  });
});
