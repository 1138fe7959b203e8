import { ERROR_CODES } from '@app/common';
import { ERROR_HTTP_STATUS, httpStatusOf } from './error-status';

describe('error code table', () => {
  it('maps the spec §7 codes', () => {
    expect(httpStatusOf('BUDGET_EXCEEDED')).toBe(402);
    expect(httpStatusOf('DEPTH_LIMIT')).toBe(400);
    expect(httpStatusOf('CHAIN_NOT_FOUND')).toBe(404);
    expect(httpStatusOf('CHAIN_DISABLED')).toBe(403);
    expect(httpStatusOf('CIRCULAR_DEPENDENCY')).toBe(400);
    expect(httpStatusOf('AGENT_NOT_CHAINABLE')).toBe(403);
    expect(httpStatusOf('CHAIN_TOKEN_EXPIRED')).toBe(401);
    expect(httpStatusOf('CHAIN_TOKEN_INVALID')).toBe(401);
    expect(httpStatusOf('CHAIN_TIMEOUT')).toBe(408);
  });

  it('maps every code of resolutions §10 to its status', () => {
    const table: Record<number, string[]> = {
      400: ['VALIDATION_ERROR'],
      422: ['INPUT_SCHEMA_MISMATCH'],
      401: ['UNAUTHORIZED'],
      402: ['PAYMENT_REQUIRED', 'PAYMENT_INVALID'],
      403: ['FORBIDDEN', 'WALLET_MISMATCH'],
      404: [
        'AGENT_NOT_FOUND',
        'CAPABILITY_NOT_FOUND',
        'TRANSACTION_NOT_FOUND',
        'DISPUTE_NOT_FOUND',
        'WITHDRAWAL_NOT_FOUND',
        'WEBHOOK_NOT_FOUND',
        'EXECUTION_NOT_FOUND',
        'NOT_FOUND',
      ],
      409: [
        'IDEMPOTENCY_CONFLICT',
        'PAYMENT_REPLAYED',
        'INSUFFICIENT_BALANCE',
        'DISPUTE_EXISTS',
        'DISPUTE_WINDOW_CLOSED',
        'INVALID_STATE',
      ],
      413: ['PAYLOAD_TOO_LARGE'],
      429: ['RATE_LIMITED'],
      500: ['INTERNAL_ERROR'],
      502: ['EXECUTION_FAILED', 'SETTLEMENT_FAILED'],
      504: ['EXECUTION_TIMEOUT'],
    };
    for (const [status, codes] of Object.entries(table)) {
      for (const code of codes)
        expect({ code, status: (ERROR_HTTP_STATUS as Record<string, number>)[code] }).toEqual({
          code,
          status: Number(status),
        });
    }
  });

  it('has a status for every code the libs throw, and no other', () => {
    expect(Object.keys(ERROR_HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('uses only HTTP error statuses', () => {
    for (const status of Object.values(ERROR_HTTP_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
