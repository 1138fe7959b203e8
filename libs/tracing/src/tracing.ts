import { NodeSDK } from '@opentelemetry/sdk-node';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/**
 * Whether the standard OpenTelemetry variables ask for traces: an exporter named
 * (OTEL_TRACES_EXPORTER other than none) or an OTLP endpoint, and OTEL_SDK_DISABLED not true. Off by
 * default: without them nothing is patched and the spans below cost a no-op call.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter !== undefined) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let sdk: NodeSDK | null = null;

/**
 * Starts the OpenTelemetry Node SDK (http, express, pg, ioredis and undici instrumentations) for
 * `serviceName` (OTEL_SERVICE_NAME wins), configured by the OTEL_* variables. Call it before the
 * instrumented modules are loaded: first thing in the process.
 */
export function startTracing(serviceName: string): boolean {
  // eslint-disable-next-line no-restricted-properties -- the OTEL_* variables are read by the OpenTelemetry SDK itself
  const env = process.env;
  if (sdk || !tracingRequested(env)) return false;
  env.OTEL_SERVICE_NAME ??= serviceName;
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/metrics' || (req.url ?? '').startsWith('/api/v1/health') }),
      new ExpressInstrumentation(),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  const stop = () => void sdk?.shutdown().catch(() => undefined);
  process.once('beforeExit', stop);
  return true;
}

/** Whether the SDK runs in this process (spans are real, with ids; outgoing calls carry a traceparent). */
export function tracingActive(): boolean {
  return sdk !== null;
}

/** Flushes and stops the SDK (graceful shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = null;
}
