import { traceLogFields } from '@app/tracing';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction } from 'express';
import { randomUUID } from 'node:crypto';
import type { Options } from 'pino-http';
import { AppConfig } from '@app/config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id (the caller's X-Request-ID when sane, else a new UUID), kept on `req.id` and echoed in X-Request-ID. */
export function assignRequestId(req: IncomingMessage & { id?: unknown }, res: ServerResponse): string {
  if (typeof req.id === 'string') return req.id;
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('X-Request-ID', id);
  return id;
}

/**
 * First in the chain, so every answer has its id, even one written before Nest's router (a
 * malformed body, /metrics): the log line, the X-Request-ID header and an error's body agree.
 */
export function requestIdMiddleware(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
  assignRequestId(req, res);
  next();
}

/** pino-http: one request id per request (the caller's X-Request-ID when sane), echoed back. */
export function pinoHttpOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    // The trace and span ids of the active span on every line (none while tracing is off).
    mixin: traceLogFields,
    genReqId: assignRequestId,
    customProps: (req: IncomingMessage) => ({ requestId: req.id }),
    redact: {
      // Every header that proves who the caller is or pays: a log line never lets its reader act as them.
      paths: [
        'req.headers["x-agent-signature"]',
        'req.headers["x-client-signature"]',
        'req.headers["x-chain-token"]',
        'req.headers["x-payment"]',
        'req.headers["payment-signature"]',
        'req.headers["x-admin-key"]',
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/api/v1/health') },
  };
}
