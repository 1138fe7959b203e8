import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { AppModule } from './app.module';
import { serveConsole } from './http/console';
import { jsonBodyMiddleware } from './http/json-body.middleware';
import { requestIdMiddleware } from './http/logging';
import { httpMetricsMiddleware, metricsHandler } from './http/metrics';
import { applyGlobalPrefix, buildOpenApiDocument } from './openapi';

const EXPOSED_HEADERS = [
  'X-Request-ID',
  'X-PAYMENT-RESPONSE',
  'PAYMENT-RESPONSE',
  'PAYMENT-REQUIRED',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
];

/** Builds the configured HTTP application; used by main.ts and by the e2e tests. */
export async function createApiApp(config: AppConfig, opts: { clock?: Clock } = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, opts.clock), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.enableCors({ exposedHeaders: EXPOSED_HEADERS });
  const metrics = app.get(Metrics);
  app.use(requestIdMiddleware);
  app.use(httpMetricsMiddleware(metrics));
  app.use('/metrics', metricsHandler(metrics, config.metricsToken));
  app.use(jsonBodyMiddleware(config.bodyLimitBytes));
  if (config.consoleDir) serveConsole(app, config.consoleDir);
  applyGlobalPrefix(app);

  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
  return app;
}
