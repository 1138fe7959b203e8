import { declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier';
import { paymentIdOf, paymentIdentifierOffer, PAYMENT_IDENTIFIER } from './payment-identifier';

const ID = 'pay_7d5d747be160e280504c099d984bcfe0';
const ext = (info: unknown, schema: unknown = declarePaymentIdentifierExtension(false).schema) => ({
  [PAYMENT_IDENTIFIER]: { info, schema },
});

describe('paymentIdOf', () => {
  it('reads the id a client appended to the offered extension, and null when there is none', () => {
    const offered = paymentIdentifierOffer(false)[PAYMENT_IDENTIFIER] as { info: object; schema: object };
    expect(paymentIdOf({ [PAYMENT_IDENTIFIER]: { ...offered, info: { ...offered.info, id: ID } } })).toBe(ID);
    expect(paymentIdOf(undefined)).toBeNull();
    expect(paymentIdOf({ bazaar: {} })).toBeNull();
    expect(paymentIdOf(ext({ required: false }))).toBeNull();
  });

  it('refuses a malformed extension as PAYMENT_INVALID invalid_payment_identifier', () => {
    for (const bad of [
      { [PAYMENT_IDENTIFIER]: 'x' },
      ext('x'),
      ext({ required: 'no', id: ID }),
      ext({ required: false, id: 'short' }),
      ext({ required: false, id: `${ID}!` }),
      ext({ required: false, id: 'a'.repeat(129) }),
      ext({ required: false, id: 42 }),
    ]) {
      let error: unknown;
      try {
        paymentIdOf(bad);
      } catch (err) {
        error = err;
      }
      expect(error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason: 'invalid_payment_identifier' } });
    }
  });

  it('never compiles the schema the client echoed (a backtracking pattern costs nothing)', () => {
    const hostile = { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } };
    const started = process.hrtime.bigint();
    expect(paymentIdOf(ext({ required: false, id: ID, x: `${'a'.repeat(40)}!` }, hostile))).toBe(ID);
    // Ajv would backtrack for hours on this; reading the info by hand takes microseconds.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(100);
  });
});
