import { createHash } from 'node:crypto';
import express, { NextFunction, Request, Response } from 'express';
import { AppException, unstorablePath } from '@app/common';
import { valueProblem } from '@app/json-schema';
import { writeError } from './error-response';

const ESCAPES = new WeakSet<Request>();
/** SHA-256 hex of the exact body bytes, kept for requests that carry a wallet signature (it may bind the body). */
const BODY_SHA256 = new WeakMap<Request, string>();

/** SHA-256 hex of the body bytes a signed request carried; undefined when it had no JSON body (no bytes). */
export function bodySha256(req: Request): string | undefined {
  return BODY_SHA256.get(req);
}

/**
 * JSON body parsing with a size cap. Parser failures are answered here, in the envelope,
 * because they happen before Nest's router and filters see the request. Text Postgres cannot
 * store (NUL, unpaired surrogates) is refused for every route, in the body and in the query: in
 * JSON it can only arrive as a `\u` escape and in a URL as a percent escape, so only a body or a
 * query that has one is walked.
 */
export function jsonBodyMiddleware(limitBytes: number) {
  const parse = express.json({
    limit: limitBytes,
    strict: true,
    verify: (req, _res, buf) => {
      if (buf.includes('\\u')) ESCAPES.add(req as Request);
      if (req.headers['x-agent-signature'] !== undefined)
        BODY_SHA256.set(req as Request, createHash('sha256').update(buf).digest('hex'));
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (err?: unknown) => {
      if (!err) {
        const inQuery = req.url.includes('%') ? unstorablePath(req.query) : null;
        const at = inQuery !== null ? `query${inQuery}` : ESCAPES.has(req) ? unstorablePath(req.body) : null;
        if (at === null) {
          // Every body within the value limits (depth, values, keys), so nothing downstream recurses
          // or loops over a hostile shape (canonical JSON, storage, class-validator).
          const tooBig = req.body !== undefined ? valueProblem(req.body) : null;
          if (tooBig === null) return next();
          return writeError(
            res,
            new AppException('VALIDATION_ERROR', `The request body ${tooBig}`, {
              errors: [{ field: 'body', messages: [`body ${tooBig}`] }],
            }),
          );
        }
        return writeError(
          res,
          new AppException('VALIDATION_ERROR', 'The request contains text that cannot be stored', {
            errors: [{ field: at, messages: ['NUL characters and unpaired UTF-16 surrogates are not accepted'] }],
          }),
        );
      }
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        return writeError(
          res,
          new AppException('PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`, { limitBytes }),
        );
      }
      if (type === 'entity.parse.failed') {
        return writeError(
          res,
          new AppException('VALIDATION_ERROR', 'Request body is not valid JSON', {
            errors: [{ field: 'body', messages: ['malformed JSON'] }],
          }),
        );
      }
      return writeError(
        res,
        new AppException('VALIDATION_ERROR', 'Request body could not be read', {
          errors: [{ field: 'body', messages: [String((err as Error).message)] }],
        }),
      );
    });
  };
}
