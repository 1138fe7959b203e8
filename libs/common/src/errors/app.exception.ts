import { ErrorCode, httpStatusOf } from './error-codes';

export type ErrorDetails = Record<string, unknown>;

/**
 * The one exception type domain code throws. It carries a code from the error table;
 * the API's global filter turns it into the envelope and the mapped HTTP status.
 * `extraBody` is merged into the top level of the response body (the x402 402 reply
 * needs `x402Version` and `accepts` beside the envelope); `headers` are set on the reply.
 */
export class AppException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly extra?: { body?: Record<string, unknown>; headers?: Record<string, string> },
  ) {
    super(message);
    this.name = 'AppException';
  }

  get status(): number {
    return httpStatusOf(this.code);
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
    super(code, id === undefined ? `${what} not found` : `${what} ${id} not found`, id === undefined ? undefined : { id });
  }
}
