import type { Request } from 'express';
import { parse } from 'cookie';
import { AppException } from '@app/common';
import { SESSION_COOKIE } from '@app/auth';
import type { PayerReadProof } from '@app/auth';

/** The console session's token from the request's cookies (undefined without one). */
export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header && header.length <= 8_192 ? parse(header)[SESSION_COOKIE] : undefined;
}

/**
 * A change made with the session cookie must come from the console's own origin: the browser's
 * Origin header says where the page that sent it lives, so a form on another site (CSRF) is
 * refused before anything is done, on top of the cookie's SameSite=Strict.
 */
export function assertSameOrigin(req: Request, origin: URL): void {
  const from = req.headers.origin;
  if (from !== origin.origin)
    throw new AppException('FORBIDDEN', `Only pages of ${origin.origin} may do this (Origin header)`, {
      reason: 'cross_origin',
    });
}

/** How a request proves it reads for a paying wallet: its console session, or the wallet's signature headers. */
export function payerProof(req: Request): PayerReadProof {
  return {
    sessionToken: sessionToken(req),
    wallet: req.header('x-client-wallet'),
    signature: req.header('x-client-signature'),
  };
}
