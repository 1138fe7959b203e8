import express, { NextFunction, Request, Response } from 'express';
import { AppException } from '@app/common';
import { writeError } from './error-response';

/**
 * JSON body parsing with a size cap. Parser failures are answered here, in the envelope,
 * because they happen before Nest's router and filters see the request.
 */
export function jsonBodyMiddleware(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: true });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        return writeError(res, new AppException('PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`, { limitBytes }));
      }
      if (type === 'entity.parse.failed') {
        return writeError(res, new AppException('VALIDATION_ERROR', 'Request body is not valid JSON', { errors: [{ field: 'body', messages: ['malformed JSON'] }] }));
      }
      return writeError(res, new AppException('VALIDATION_ERROR', 'Request body could not be read', { errors: [{ field: 'body', messages: [String((err as Error).message)] }] }));
    });
  };
}
