import { ValidationException } from '@app/common';
import { parsePaymentRef, paymentStatusOf } from './payment-status';

const HASH = `0x${'aB'.repeat(32)}`;

describe('parsePaymentRef', () => {
  it('takes a 0x hash as a hash (lower case) and as an identifier (as given)', () => {
    expect(parsePaymentRef(HASH)).toEqual({ hash: HASH.toLowerCase(), identifier: HASH });
  });

  it('takes 16-128 of [A-Za-z0-9_-] as a payment identifier only', () => {
    expect(parsePaymentRef('pay_0123456789abcdef')).toEqual({ hash: null, identifier: 'pay_0123456789abcdef' });
    expect(parsePaymentRef('a'.repeat(128)).identifier).toHaveLength(128);
    expect(parsePaymentRef(`0x${'ab'.repeat(31)}`).hash).toBeNull(); // 62 hex digits: an identifier, not a hash
  });

  it.each([
    ['a NUL byte', `pay_0123456789abcdef\u0000`],
    ['a NUL byte inside a hash', `0x${'ab'.repeat(31)}\u0000a`],
    ['too short', 'pay_0123456789a'],
    ['too long', 'a'.repeat(129)],
    ['a character outside the set', 'pay_0123456789abc.def'],
    ['a space', 'pay 0123456789abcdef'],
    ['non-ASCII', 'pay_0123456789abcdé'],
    ['empty', ''],
  ])('refuses %s with VALIDATION_ERROR on ref', (_what, ref) => {
    let err: unknown;
    try {
      parsePaymentRef(ref);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationException);
    expect((err as ValidationException).details).toMatchObject({ errors: [{ field: 'ref' }] });
  });
});

describe('paymentStatusOf', () => {
  const run = (status: 'pending' | 'completed' | 'failed' | 'timeout' | 'refunded') => ({ status });

  it.each([
    ['settled and linked', { status: 'settled', refId: 'req_1' }, run('completed'), 'settled'],
    [
      'settled, its charge not yet recorded',
      { status: 'settled', refId: null },
      run('completed'),
      'settlement_pending',
    ],
    [
      'settled, its execution refunded after a dispute',
      { status: 'settled', refId: 'req_1' },
      run('refunded'),
      'refunded',
    ],
    ['a registration fee refunded (no agent)', { status: 'settled', refId: 'rfd_1' }, null, 'refunded'],
    ['a registration fee that created its agent', { status: 'settled', refId: 'a-uuid' }, null, 'settled'],
    ['settling (sent, or being sent)', { status: 'settling', refId: null }, run('completed'), 'settlement_pending'],
    ['reserved, its run queued or running', { status: 'reserved', refId: null }, run('pending'), 'settlement_pending'],
    [
      'reserved, no execution (a registration under way)',
      { status: 'reserved', refId: null },
      null,
      'settlement_pending',
    ],
    ['reserved by a failed run', { status: 'reserved', refId: null }, run('failed'), 'released'],
    ['reserved by a timed-out run', { status: 'reserved', refId: null }, run('timeout'), 'released'],
    ['settlement_failed (retried)', { status: 'settlement_failed', refId: null }, run('completed'), 'failed'],
    ['released', { status: 'released', refId: null }, run('completed'), 'released'],
  ] as const)('%s: %s', (_what, payment, execution, expected) => {
    expect(paymentStatusOf(payment, execution)).toBe(expected);
  });
});
