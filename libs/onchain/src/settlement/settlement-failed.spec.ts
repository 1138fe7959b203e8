import { AppException } from '@app/common';
import { SettlementFailed } from './settlement-failed';

describe('SettlementFailed', () => {
  it('is an AppException with the public code, and its reason typed and in details', () => {
    const err = new SettlementFailed('expired', { paymentId: 'pay_1' }, 'authorization_expired_unused');
    expect(err).toBeInstanceOf(AppException);
    expect([err.code, err.reason, err.details, err.name]).toEqual([
      'SETTLEMENT_FAILED',
      'authorization_expired_unused',
      { paymentId: 'pay_1', reason: 'authorization_expired_unused' },
      'AppException',
    ]);
  });

  it('keeps details as given when there is no reason', () => {
    expect(new SettlementFailed('retry', { paymentId: 'pay_1' }).details).toEqual({ paymentId: 'pay_1' });
  });
});
