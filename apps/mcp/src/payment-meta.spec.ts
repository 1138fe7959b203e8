import { idempotencyKeyFor, MAX_PAYMENT_BYTES, readPaymentMeta } from './payment-meta';

const accepted = {
  scheme: 'exact',
  network: 'eip155:84532',
  amount: '11000',
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  maxTimeoutSeconds: 300,
  extra: { name: 'USDC', version: '2' },
};
const payload = { x402Version: 2, accepted, payload: { signature: '0x12', authorization: { nonce: '0x34' } } };
const meta = (p: unknown) => ({ 'x402/payment': p });
const reason = (p: unknown) => {
  const read = readPaymentMeta(meta(p));
  return read.kind === 'invalid' ? read.reason : read.kind;
};

describe('_meta["x402/payment"] (pay-per-call mode)', () => {
  it('takes none, or a v2 PaymentPayload as the client sent it (fields the schema does not name kept)', () => {
    expect(readPaymentMeta(undefined)).toEqual({ kind: 'none' });
    expect(readPaymentMeta({ other: 1 })).toEqual({ kind: 'none' });
    const withMore = { ...payload, resource: { url: 'https://a.example/x' }, extensions: { bazaar: { info: {} } } };
    expect(readPaymentMeta(meta(withMore))).toEqual({ kind: 'payload', payload: withMore });
  });

  it('says why anything else is not a payment: not an object, too large, NUL or a lone surrogate, v1, not the schema', () => {
    expect(reason('eyJ4NDAyVmVyc2lvbiI6Mn0=')).toBe('must be an x402 PaymentPayload object');
    expect(reason(null)).toBe('must be an x402 PaymentPayload object');
    expect(reason([payload])).toBe('must be an x402 PaymentPayload object');
    expect(reason({ ...payload, junk: 'x'.repeat(MAX_PAYMENT_BYTES) })).toMatch(/^is \d+ bytes of JSON; at most 11264/);
    expect(reason({ ...payload, payload: { signature: '0x\u000012' } })).toBe(
      'has a NUL or an unpaired surrogate at payment.payload.signature',
    );
    expect(reason({ ...payload, extensions: { ['k\uD800']: 1 } })).toBe(
      'has a NUL or an unpaired surrogate at payment.extensions (a key)',
    );
    expect(reason({ ...payload, x402Version: 1 })).toMatch(/^must have x402Version 2/);
    expect(reason({ x402Version: 2, accepted: 'exact', payload: {} })).toMatch(
      /^is not an x402 v2 PaymentPayload \(payment\.accepted: /,
    );
    expect(reason({ ...payload, payload: { note: '\uD83D\uDE00 fine' } })).toBe('payload');
  });

  it("sends the payload's payment identifier as the Idempotency-Key, none when it is malformed, else one of its authorization", () => {
    const id = 'pay_0123456789abcdef';
    expect(idempotencyKeyFor({ ...payload, extensions: { 'payment-identifier': { info: { id } } } })).toBe(id);
    expect(idempotencyKeyFor({ ...payload, extensions: { 'payment-identifier': { info: { id: 'short' } } } })).toBe(
      undefined,
    );
    const echoed = { ...payload, extensions: { 'payment-identifier': { info: { required: false } } } };
    // No identifier: one key per authorization (payer and nonce), the same for the same payment sent again.
    expect(idempotencyKeyFor(echoed)).toMatch(/^mcp_[\w-]{43}$/);
    expect(idempotencyKeyFor(payload)).toBe(idempotencyKeyFor(echoed));
    const other = { ...payload, payload: { signature: '0x12', authorization: { nonce: '0x35' } } };
    expect(idempotencyKeyFor(other)).not.toBe(idempotencyKeyFor(payload));
  });
});
