import { decodeX402Header, paymentSignatureHeader } from './capability-call';

describe('x402 headers (SDK)', () => {
  it('writes a PaymentPayload as PAYMENT-SIGNATURE (base64 of its JSON) and reads such a header back', () => {
    const payload = { x402Version: 2, accepted: { scheme: 'exact' }, payload: { signature: '0xab' }, note: 'é' };
    const header = paymentSignatureHeader(payload);
    expect(header.name).toBe('PAYMENT-SIGNATURE');
    expect(JSON.parse(Buffer.from(header.value, 'base64').toString('utf8'))).toEqual(payload);
    expect(decodeX402Header(header.value)).toEqual(payload);
  });

  it('reads nothing from a missing header, garbage, or JSON that is not an object', () => {
    expect(decodeX402Header(null)).toBeNull();
    expect(decodeX402Header('%%% not base64 %%%')).toBeNull();
    expect(decodeX402Header(Buffer.from('[1,2]').toString('base64'))).toBeNull();
    expect(decodeX402Header(Buffer.from('null').toString('base64'))).toBeNull();
  });
});
