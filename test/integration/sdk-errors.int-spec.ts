import { ERROR_CODES } from '@app/common';
import { httpStatusOf } from '../../apps/api/src/http/error-status';
import * as sdk from '@agora/sdk';

/** The SDK's error table is the API's: every code the API can answer with maps to its typed exception. */
describe('SDK error mapping', () => {
  const byStatus: Record<number, new (...a: never[]) => sdk.AgoraError> = {
    400: sdk.ValidationError,
    401: sdk.AuthenticationError,
    402: sdk.PaymentError,
    403: sdk.ForbiddenError,
    404: sdk.NotFoundError,
    408: sdk.TimeoutError,
    409: sdk.ConflictError,
    413: sdk.PayloadTooLargeError,
    422: sdk.InputSchemaError,
    429: sdk.RateLimitedError,
    500: sdk.InternalServerError,
    502: sdk.ExecutionFailedError,
    503: sdk.ServiceUnavailableError,
    504: sdk.TimeoutError,
  };

  it('knows exactly the codes the API answers with, at the same statuses', () => {
    expect(Object.keys(sdk.API_ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES)
      expect([code, sdk.API_ERROR_STATUS[code as sdk.ApiErrorCode]]).toEqual([code, httpStatusOf(code)]);
  });

  it.each(ERROR_CODES.map((c) => [c]))('maps %s to its typed exception, keeping code, message and details', (code) => {
    const err = sdk.errorFromEnvelope(httpStatusOf(code), { code, message: 'm', details: { a: 1 } });
    expect(err).toBeInstanceOf(byStatus[httpStatusOf(code)]);
    expect(err).toMatchObject({
      code,
      message: 'm',
      status: httpStatusOf(code),
      details: { a: 1 },
      name: byStatus[httpStatusOf(code)].name,
    });
  });

  it('maps a code it does not know by the HTTP status, and a body that is not an envelope to UNEXPECTED_RESPONSE', () => {
    expect(sdk.errorFromEnvelope(409, { code: 'SOMETHING_NEW', message: 'x' })).toBeInstanceOf(sdk.ConflictError);
    expect(sdk.errorFromEnvelope(502, undefined)).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 });
  });

  it('parses USDC amounts exactly and refuses anything else', () => {
    expect(sdk.toMicros('0.1')).toBe(100_000n);
    expect(sdk.toMicros('12.345678')).toBe(12_345_678n);
    expect(sdk.formatMicros(1n)).toBe('0.000001');
    for (const bad of ['1.0000001', '-1', '1e3', '', ' . ']) expect(() => sdk.toMicros(bad)).toThrow(RangeError);
  });
});
