import { BadRequestException, NotFoundException, PayloadTooLargeException, ServiceUnavailableException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AppException } from '@app/common';
import { toErrorResponse } from './error-response';

describe('toErrorResponse', () => {
  it('maps AppException to its table status, with details, and renders a payment offer as the x402 fields and header', () => {
    const v2 = { x402Version: 2, accepts: [{ scheme: 'exact' }] };
    const r = toErrorResponse(new AppException('PAYMENT_REQUIRED', 'pay', { amount: '1' }, { accepts: [{ scheme: 'exact' }], v2 }));
    expect(r).toEqual({
      status: 402,
      body: { success: false, error: { code: 'PAYMENT_REQUIRED', message: 'pay', details: { amount: '1' } }, x402Version: 1, accepts: [{ scheme: 'exact' }] },
      headers: { 'PAYMENT-REQUIRED': Buffer.from(JSON.stringify(v2)).toString('base64') },
    });
  });

  it('maps framework exceptions by status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body.error).toEqual({ code: 'NOT_FOUND', message: 'Cannot GET /x' });
    expect(toErrorResponse(new BadRequestException()).body.error.code).toBe('VALIDATION_ERROR');
    expect(toErrorResponse(new PayloadTooLargeException()).status).toBe(413);
    expect(toErrorResponse(new ServiceUnavailableException({ status: 'error' })).body.error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('answers anything else with a bare 500 and an error id, leaking nothing', () => {
    const secret = new Error('password authentication failed for user "postgres" at 10.0.0.5');
    const r = toErrorResponse(secret);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { errorId: expect.any(String) } } });
    expect(JSON.stringify(r.body)).not.toMatch(/password|postgres|10\.0\.0\.5|stack/);
  });

  it('answers Postgres momentarily unavailable (no pooled connection in time, a deadlock victim, a terminated backend, a connection lost) with 503 and Retry-After, and a real fault still with 500', () => {
    const driver = (code: string, message: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));
    for (const err of [
      new Error('timeout exceeded when trying to connect'),
      driver('40P01', 'deadlock detected'),
      driver('57P01', 'terminating connection due to administrator command'),
      // A connection lost under a statement (seen in the G5 fault test, where they were 500s).
      driver('ECONNRESET', 'write ECONNRESET'),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      const r = toErrorResponse(err);
      expect(r.status).toBe(503);
      expect(r.headers).toEqual({ 'Retry-After': '1' });
      expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(r.body)).not.toMatch(/deadlock|terminating|connect|ECONNRESET|queryable/);
    }
    expect(toErrorResponse(driver('23505', 'duplicate key value violates unique constraint')).status).toBe(500);
  });
});
