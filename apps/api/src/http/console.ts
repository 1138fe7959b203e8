import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { NestExpressApplication } from '@nestjs/platform-express';
import { UNPREFIXED_ROUTES } from '../openapi';

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
 * for a year), and its one page for any other GET outside the API's paths (the console routes in the
 * browser). Answers whether the console was found; without a build the API runs alone.
 */
export function serveConsole(app: NestExpressApplication, dir: string): boolean {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) return false;
  const page = readFileSync(indexFile);
  app.useStaticAssets(join(root, 'assets'), { prefix: '/assets', index: false, immutable: true, maxAge: '365d' });
  app.use((req: Request, res: Response, next: NextFunction) => {
    // Express matches the API's routes in any letter case: so does this.
    const path = req.path.toLowerCase();
    const api = API_PATHS.some((p) => path === p || path.startsWith(`${p.toLowerCase()}/`));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || api) return next();
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', CONSOLE_CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.end(req.method === 'HEAD' ? undefined : page);
  });
  return true;
}
