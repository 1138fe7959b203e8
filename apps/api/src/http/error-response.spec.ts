import {
  BadRequestException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { QueryFailedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { AppException, UnavailableException } from '@app/common';
import { errorKind } from '@app/database';
import { toErrorResponse, writeError } from './error-response';

describe('toErrorResponse', () => {
  it('maps AppException to its table status, with details, and renders a payment offer as the x402 fields and header', () => {
    const v2 = { x402Version: 2, accepts: [{ scheme: 'exact' }] };
    const r = toErrorResponse(
      new AppException('PAYMENT_REQUIRED', 'pay', { amount: '1' }, { accepts: [{ scheme: 'exact' }], v2 }),
    );
    expect(r).toEqual({
      status: 402,
      body: {
        success: false,
        error: { code: 'PAYMENT_REQUIRED', message: 'pay', details: { amount: '1' } },
        x402Version: 1,
        accepts: [{ scheme: 'exact' }],
      },
      headers: { 'PAYMENT-REQUIRED': Buffer.from(JSON.stringify(v2)).toString('base64') },
    });
  });

  it('maps framework exceptions by status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Cannot GET /x',
    });
    expect(toErrorResponse(new BadRequestException()).body.error.code).toBe('VALIDATION_ERROR');
    expect(toErrorResponse(new PayloadTooLargeException()).status).toBe(413);
    expect(toErrorResponse(new ServiceUnavailableException({ status: 'error' })).body.error.code).toBe(
      'SERVICE_UNAVAILABLE',
    );
  });

  it('answers anything else with a bare 500 and an error id, leaking nothing', () => {
    const secret = new Error('password authentication failed for user "postgres" at 10.0.0.5');
    const r = toErrorResponse(secret);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { errorId: expect.any(String) } },
    });
    expect(JSON.stringify(r.body)).not.toMatch(/password|postgres|10\.0\.0\.5|stack/);
  });

  it('says when to come back on an UnavailableException (admission without Redis): 503 with Retry-After; not on other 503s', () => {
    const r = toErrorResponse(new UnavailableException('try again', 2));
    expect(r).toEqual({
      status: 503,
      body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'try again' } },
      headers: { 'Retry-After': '2' },
    });
    expect(toErrorResponse(new AppException('SERVICE_UNAVAILABLE', 'full')).headers).toEqual({});
  });

  it('answers Postgres momentarily unavailable (no pooled connection in time, a deadlock victim, a terminated backend, a connection lost) with 503 and Retry-After, and a real fault still with 500', () => {
    const driver = (code: string, message: string) =>
      new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));
    for (const err of [
      new Error('timeout exceeded when trying to connect'),
      driver('40P01', 'deadlock detected'),
      driver('57P01', 'terminating connection due to administrator command'),
      // A connection lost under a statement (seen in the G5 fault test, where they were 500s).
      driver('ECONNRESET', 'write ECONNRESET'),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Client has encountered a connection error and is not queryable'),
      // Issue 28: the other ways pg, pg-pool and TypeORM report a lost connection.
      new Error('Client was closed and is not queryable'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout expired'),
      Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
        name: 'QueryRunnerAlreadyReleasedError',
      }),
      // The one G5 caught (seed 857516977): a transaction's next statement after its connection was killed.
      new QueryRunnerProviderAlreadyReleasedError(),
      driver('08006', 'connection failure'),
      driver('57P05', 'terminating connection due to idle-session timeout'),
      new Error('the transaction failed', {
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      }),
      new AggregateError([new Error('Connection terminated unexpectedly')], 'two statements failed'),
    ]) {
      const r = toErrorResponse(err);
      expect(r.status).toBe(503);
      expect(r.headers).toEqual({ 'Retry-After': '1' });
      expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(r.body)).not.toMatch(/deadlock|terminating|connect|ECONNRESET|queryable/);
    }
    expect(toErrorResponse(driver('23505', 'duplicate key value violates unique constraint')).status).toBe(500);
    expect(toErrorResponse(driver('08P01', 'protocol violation')).status).toBe(500);
    expect(
      toErrorResponse(new AggregateError([new Error('Connection terminated'), new Error('boom')], 'mixed')).status,
    ).toBe(500);
  });

  it('logs an unexpected error with its class and code (and those of its cause), so a 500 under a fault test says what it was', () => {
    const err = new QueryFailedError(
      'SELECT 1',
      [],
      Object.assign(new Error('odd'), { code: 'XX000', cause: new TypeError('inner') }),
    );
    expect(errorKind(err)).toEqual({ class: 'QueryFailedError', code: 'XX000', cause: { class: 'TypeError' } });
    expect(errorKind(new Error('outer', { cause: Object.assign(new Error('x'), { code: 'EPROTO' }) }))).toEqual({
      class: 'Error',
      cause: { class: 'Error', code: 'EPROTO' },
    });
    expect(errorKind('a string')).toEqual({ class: 'string' });
  });
});

describe('writeError', () => {
  it("writes the envelope with the request's id from X-Request-ID, and its headers", () => {
    const sent: { status?: number; body?: unknown; headers: Record<string, string> } = {
      headers: { 'X-Request-ID': 'rid-1' },
    };
    const res = {
      getHeader: (k: string) => sent.headers[k],
      setHeader: (k: string, v: string) => (sent.headers[k] = v),
      status: (s: number) => ((sent.status = s), res),
      json: (b: unknown) => (sent.body = b),
    };
    writeError(res as never, new NotFoundException('Cannot GET /x'));
    expect(sent.status).toBe(404);
    expect(sent.body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'Cannot GET /x', requestId: 'rid-1' },
    });
  });
});
