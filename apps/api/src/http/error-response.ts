import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, UnavailableException } from '@app/common';
import { errorKind, isTransientDatabaseError } from '@app/database';
import { httpStatusOf } from './error-status';
import { offerRendering } from './x402-http';

export interface ErrorBody {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown>; requestId?: string };
  [extra: string]: unknown;
}

const STATUS_CODE: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

const logger = new Logger('Errors');

/**
 * Turns anything thrown into the envelope. AppException carries its code; framework
 * HttpExceptions map by status; Postgres momentarily unavailable (no pooled connection in time,
 * a deadlock victim, a terminated backend, a connection lost under a statement) is a 503 with Retry-After; anything else is a 500 that
 * logs an error id and reveals nothing more.
 */
export function toErrorResponse(exception: unknown): {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
} {
  if (exception instanceof AppException) {
    const offer = exception.offer ? offerRendering(exception.offer) : { body: {}, headers: {} };
    const body: ErrorBody = {
      success: false,
      error: {
        code: exception.code,
        message: exception.message,
        ...(exception.details ? { details: exception.details } : {}),
      },
      ...offer.body,
    };
    // A refusal for want of a moment (Redis unreachable) says when to come back.
    const retry: Record<string, string> =
      exception instanceof UnavailableException ? { 'Retry-After': String(exception.retryAfterS) } : {};
    return { status: httpStatusOf(exception.code), body, headers: { ...offer.headers, ...retry } };
  }
  if (exception instanceof HttpException && (exception.getStatus() < 500 || exception.getStatus() === 503)) {
    const status = exception.getStatus();
    const code = STATUS_CODE[status] ?? (status < 500 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR');
    const response = exception.getResponse();
    const message = typeof response === 'string' ? response : (messageOf(response) ?? exception.message);
    const details =
      status === HttpStatus.SERVICE_UNAVAILABLE && typeof response === 'object' ? { health: response } : undefined;
    return { status, body: { success: false, error: { code, message, ...(details ? { details } : {}) } }, headers: {} };
  }
  if (isTransientDatabaseError(exception)) {
    // Nothing half-done was kept, and the same request can be sent again (isTransientDatabaseError).
    logger.warn(`Postgres momentarily unavailable, answered 503: ${(exception as Error).message}`);
    return {
      status: 503,
      body: {
        success: false,
        error: {
          code: 'SERVICE_UNAVAILABLE',
          message: 'The service is momentarily busy; send the request again shortly',
        },
      },
      headers: { 'Retry-After': '1' },
    };
  }
  const errorId = randomUUID();
  // The class and code (and its cause's) tell a fault's kind apart without reading the stack.
  logger.error({ errorId, err: exception, kind: errorKind(exception) }, `Unhandled error ${errorId}`);
  return {
    status: 500,
    body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { errorId } } },
    headers: {},
  };
}

function messageOf(response: object): string | undefined {
  const m = (response as { message?: unknown }).message;
  if (typeof m === 'string') return m;
  if (Array.isArray(m)) return m.join('; ');
  return undefined;
}

/** Writes the envelope for `exception`, with the request's id (as X-Request-ID says) in `error.requestId`. */
export function writeError(res: Response, exception: unknown): void {
  const { status, body, headers } = toErrorResponse(exception);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json(withRequestId(body, res));
}

/** The envelope with the request's id, when it has one (set first thing by requestIdMiddleware). */
export function withRequestId<B extends { error: object }>(body: B, res: Response): B {
  const id = res.getHeader('X-Request-ID');
  return typeof id === 'string' ? { ...body, error: { ...body.error, requestId: id } } : body;
}
