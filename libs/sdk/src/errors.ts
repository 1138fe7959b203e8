/**
 * Errors the SDK throws. Every failed API call becomes an `AgoraError` subclass carrying the
 * envelope's `code`, `message` and `details` and the HTTP status; the two client-side failures
 * (a spend cap, an unreachable API) have their own codes.
 */

/** Every code the API answers with, by HTTP status (the API's error table). */
export const API_ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  DEPTH_LIMIT: 400,
  CIRCULAR_DEPENDENCY: 400,
  WITHDRAWAL_BELOW_MINIMUM: 400,
  UNAUTHORIZED: 401,
  CHAIN_TOKEN_EXPIRED: 401,
  CHAIN_TOKEN_INVALID: 401,
  PAYMENT_REQUIRED: 402,
  PAYMENT_INVALID: 402,
  BUDGET_EXCEEDED: 402,
  FORBIDDEN: 403,
  WALLET_MISMATCH: 403,
  CHAIN_DISABLED: 403,
  AGENT_NOT_CHAINABLE: 403,
  NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  CAPABILITY_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  DISPUTE_NOT_FOUND: 404,
  WITHDRAWAL_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  CHAIN_NOT_FOUND: 404,
  CHAIN_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  PAYMENT_REPLAYED: 409,
  INSUFFICIENT_BALANCE: 409,
  DISPUTE_EXISTS: 409,
  DISPUTE_WINDOW_CLOSED: 409,
  INVALID_STATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  INPUT_SCHEMA_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  EXECUTION_FAILED: 502,
  SETTLEMENT_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  EXECUTION_TIMEOUT: 504,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;
export type AgoraErrorCode =
  | ApiErrorCode
  | 'SPEND_CAP_EXCEEDED'
  | 'PAYMENT_NOT_ALLOWED'
  | 'CONNECTION_FAILED'
  | 'REQUEST_TIMEOUT'
  | 'UNEXPECTED_RESPONSE'
  /** 202 to a registration: its fee moved, its agent not confirmed (read `details.statusUrl` before paying again). */
  | 'REGISTRATION_PENDING';

export class AgoraError extends Error {
  /**
   * On a paid call that failed after a payment was signed: the header that carried it (the payer's
   * proof, for retrying the execution or reading its status) and the amount signed for. A
   * CONNECTION_FAILED with a payment may have reached the API: read the execution before paying again.
   */
  payment?: { header: { name: string; value: string }; amount: string };
  /**
   * The id the API gave the request that failed (its X-Request-ID, also in the error body): quote
   * it to the operator, it names the request's log lines. Null for an error without an answer.
   */
  requestId: string | null = null;
  /**
   * On an execute that failed: the Idempotency-Key it was sent with (the caller's or the one the SDK
   * made). Executing again with it answers the first run, if it ran, without a second charge.
   */
  idempotencyKey?: string;

  constructor(
    readonly code: AgoraErrorCode | string,
    message: string,
    /** The HTTP status, or 0 for an error raised before or without an answer. */
    readonly status: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or breaks a rule (details.errors names the fields). */
export class ValidationError extends AgoraError {}
/** 401: no credential, one that cannot be read, an expired or invalid chain token. */
export class AuthenticationError extends AgoraError {}
/** 402: payment required, invalid, or a chain's budget exceeded (details say how much). */
export class PaymentError extends AgoraError {}
/** 403: signed by the wrong wallet, or the action is not allowed for this agent. */
export class ForbiddenError extends AgoraError {}
/** 404: the agent, capability, execution, transaction... does not exist. */
export class NotFoundError extends AgoraError {}
/** 409: replayed payment, idempotency conflict, insufficient balance, wrong state. */
export class ConflictError extends AgoraError {}
/** 413. */
export class PayloadTooLargeError extends AgoraError {}
/** 422: the input does not match the capability's inputSchema. */
export class InputSchemaError extends AgoraError {}
/** 429: details and `retryAfterSeconds` say when to try again. */
export class RateLimitedError extends AgoraError {
  get retryAfterSeconds(): number | null {
    const v = Number(this.details.retryAfter ?? NaN);
    return Number.isFinite(v) ? v : null;
  }
}
/** 502: the agent failed or answered garbage (details.agentError), or settlement failed. */
export class ExecutionFailedError extends AgoraError {}
/** 408 and 504: the agent or the chain ran out of time; and REQUEST_TIMEOUT (status 0): no answer within the client's `timeout`. */
export class TimeoutError extends AgoraError {}
/** 503: momentarily unavailable; send the request again shortly. */
export class ServiceUnavailableError extends AgoraError {}
/** 500. */
export class InternalServerError extends AgoraError {}
/** The call would pay more than the per-call or per-session cap: refused before anything was signed. */
export class SpendCapExceededError extends AgoraError {}
/** A 402 asked for something this client does not pay: another scheme, a token that is not an allowed USDC, a malformed amount. Nothing was signed. */
export class PaymentRefusedError extends AgoraError {}
/** The API could not be reached (DNS, refused connection, timeout). */
export class ConnectionError extends AgoraError {}

type ErrorClass = new (code: string, message: string, status: number, details?: Record<string, unknown>) => AgoraError;

const BY_STATUS: Record<number, ErrorClass> = {
  400: ValidationError,
  401: AuthenticationError,
  402: PaymentError,
  403: ForbiddenError,
  404: NotFoundError,
  408: TimeoutError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: InputSchemaError,
  429: RateLimitedError,
  500: InternalServerError,
  502: ExecutionFailedError,
  503: ServiceUnavailableError,
  504: TimeoutError,
};

/** The typed error for an error envelope (by its code's status; by the HTTP status for a code this SDK does not know). */
export function errorFromEnvelope(
  status: number,
  error: { code?: unknown; message?: unknown; details?: unknown } | undefined,
): AgoraError {
  const code = typeof error?.code === 'string' ? error.code : 'UNEXPECTED_RESPONSE';
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const details = error?.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
  const known = (API_ERROR_STATUS as Record<string, number>)[code];
  const Class = BY_STATUS[known ?? status] ?? AgoraError;
  return new Class(code, message, status, details);
}
