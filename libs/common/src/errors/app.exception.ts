import { ErrorCode } from './error-codes';

export type ErrorDetails = Record<string, unknown>;

/**
 * What a paid call that was refused for want of a valid payment offers instead: the x402 v1
 * `accepts` entries and the v2 `PaymentRequired` object. Plain data: a transport renders it (the
 * HTTP api puts `accepts` beside the envelope and the v2 object in a header).
 */
export interface PaymentOffer {
  accepts: unknown[];
  v2: unknown;
}

/**
 * The one exception type domain code throws. It carries a code from the error table; each
 * transport maps codes to its own statuses (the API's global filter: the envelope and the HTTP
 * status). Nothing in it is HTTP: a 402's offer is data (`offer`), rendered by the transport.
 */
export class AppException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly offer?: PaymentOffer,
  ) {
    super(message);
    this.name = 'AppException';
  }
}

/** SERVICE_UNAVAILABLE for want of a moment (Redis unreachable, failing over): a transport says when to come back. */
export class UnavailableException extends AppException {
  constructor(
    message: string,
    readonly retryAfterS = 1,
  ) {
    super('SERVICE_UNAVAILABLE', message);
  }
}

export interface FieldError {
  field: string;
  messages: string[];
}

export class ValidationException extends AppException {
  constructor(errors: FieldError[], message = 'Request validation failed') {
    super('VALIDATION_ERROR', message, { errors });
  }
}

export class NotFoundException extends AppException {
  constructor(code: ErrorCode, what: string, id?: string) {
    super(
      code,
      id === undefined ? `${what} not found` : `${what} ${id} not found`,
      id === undefined ? undefined : { id },
    );
  }
}
