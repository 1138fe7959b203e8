import type { NextFunction, Request, Response } from 'express';
import { Metrics, scrapeAuthorized } from '@app/metrics';
import { withRequestId } from './error-response';

/** Times every request; the route label is the matched route's template (never the raw path, which would explode the label set). */
export function httpMetricsMiddleware(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const seconds = Metrics.timer();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      metrics.httpDuration.observe(
        { method: req.method, route: typeof route === 'string' ? route : 'unmatched', status: String(res.statusCode) },
        seconds(),
      );
    });
    next();
  };
}

/**
 * GET /metrics (outside /api/v1): Prometheus text for a scraper that presents
 * `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the route does not exist (404);
 * the admin key never opens it (a scraper would then hold the key that resolves disputes).
 */
export function metricsHandler(metrics: Metrics, token: string | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' || (req.path !== '/' && req.path !== '')) return next();
    if (token === undefined) {
      res
        .status(404)
        .json(withRequestId({ success: false, error: { code: 'NOT_FOUND', message: 'Cannot GET /metrics' } }, res));
      return;
    }
    if (!scrapeAuthorized(req.header('authorization'), token)) {
      res
        .status(401)
        .setHeader('WWW-Authenticate', 'Bearer')
        .json(
          withRequestId(
            {
              success: false,
              error: { code: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' },
            },
            res,
          ),
        );
      return;
    }
    metrics.text().then(
      (text) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', metrics.contentType);
        res.end(text);
      },
      (err: unknown) => next(err),
    );
  };
}
