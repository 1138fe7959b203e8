import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { UNPREFIXED_ROUTES } from '../openapi';
import { CONSOLE_ROUTES_FILE, consoleRouteMatcher, readConsoleRoutes, wantsHtml } from './console-routes';

/** The console's page: its own scripts and styles only, talking to this origin only. */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Paths that are the API's, each with all below it (a miss there is the API's 404 envelope, never the console's page). */
const API_PATHS = ['/api', '/metrics', '/assets', ...new Set(UNPREFIXED_ROUTES.map((r) => `/${r.path.split('/')[0]}`))];

/**
 * Serves the console (apps/console, built into `dir`) at `/`: its hashed assets under /assets (cached
 * for a year), and its one page at each of its routes (the build's CONSOLE_ROUTES_FILE; the console
 * routes in the browser). Any other GET outside the API's paths is a 404: the console's page (its
 * not-found view) for a browser, else left to the API, whose 404 is the error envelope. Answers
 * whether the console is served; without a build (or one that lists no routes) the API runs alone.
 */
export function serveConsole(app: NestExpressApplication, dir: string): boolean {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) return false;
  const routes = readConsoleRoutes(join(root, CONSOLE_ROUTES_FILE));
  if (routes === null) {
    new Logger('Console').warn(
      `${root} has no ${CONSOLE_ROUTES_FILE} (an older build?): rebuild it; the API runs alone`,
    );
    return false;
  }
  const isPage = consoleRouteMatcher(routes);
  const page = readFileSync(indexFile);
  app.useStaticAssets(join(root, 'assets'), { prefix: '/assets', index: false, immutable: true, maxAge: '365d' });
  app.use((req: Request, res: Response, next: NextFunction) => {
    // Express matches the API's routes in any letter case: so does this.
    const path = req.path.toLowerCase();
    const api = API_PATHS.some((p) => path === p || path.startsWith(`${p.toLowerCase()}/`));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || api) return next();
    const found = isPage(req.path);
    // A miss is answered by what the client accepts: the page for a browser, else the API's envelope.
    if (!found) res.vary('Accept');
    if (!found && !wantsHtml(req.headers.accept)) return next();
    res.status(found ? 200 : 404);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', CONSOLE_CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.end(req.method === 'HEAD' ? undefined : page);
  });
  return true;
}
