/* eslint-disable @typescript-eslint/no-require-imports -- the SDK is required only when tracing starts (below) */
import type { NodeSDK } from '@opentelemetry/sdk-node';
type Instrumentation = NonNullable<NonNullable<ConstructorParameters<typeof NodeSDK>[0]>['instrumentations']>[number];

/*
 * The SDK and the instrumentations are required when tracing starts, not when this lib is imported:
 * they are 2,078 of the 4,866 modules the api loads, and every lib that opens a span imports this
 * one. A process with tracing off (the default) loads none of them (docs/observability.md). The
 * requires name their module literally so that webpack keeps them external.
 */
const INSTRUMENTATIONS: Record<string, () => Instrumentation> = {
  http: () =>
    new (
      require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http')
    ).HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => req.url === '/metrics' || (req.url ?? '').startsWith('/api/v1/health'),
      // The route template names the server span (express left it on the request): what the express
      // instrumentation was loaded for, without a wrapper around every layer.
      applyCustomAttributesOnSpan: (span, req) => {
        const route = (req as { route?: { path?: unknown } }).route?.path;
        if (typeof route !== 'string' || !('method' in req)) return;
        span.setAttribute('http.route', route);
        span.updateName(`${req.method} ${route}`);
      },
    }),
  // A span per Nest middleware and handler layer (7 of an execute's 28) tells nothing the agora.*
  // spans do not; the route is named by the http instrumentation above.
  express: () => {
    const { ExpressInstrumentation, ExpressLayerType } =
      require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
    return new ExpressInstrumentation({
      ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.REQUEST_HANDLER],
    });
  },
  // Statements, not pool checkouts; and none outside a trace (the sweeper's polling).
  pg: () =>
    new (
      require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg')
    ).PgInstrumentation({
      enhancedDatabaseReporting: false,
      ignoreConnectSpans: true,
      requireParentSpan: true,
    }),
  ioredis: () =>
    new (
      require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis')
    ).IORedisInstrumentation({ requireParentSpan: true }),
  undici: () =>
    new (
      require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici')
    ).UndiciInstrumentation(),
};

/**
 * Loaded unless the variables say otherwise: the edges of a trace (the request served, the calls to
 * agents and webhook receivers, which carry the traceparent). Postgres, Redis and express cost on
 * every request even when it is not sampled (a wrapper and a span per statement): the bench measured
 * all five at +20% CPU per sync execute with nothing sampled (docs/performance.md); they are there
 * for whoever asks.
 */
export const DEFAULT_INSTRUMENTATIONS = ['http', 'undici'];

/**
 * The instrumentations to load: the defaults, or those OTEL_NODE_ENABLED_INSTRUMENTATIONS names,
 * less those OTEL_NODE_DISABLED_INSTRUMENTATIONS names (the OpenTelemetry Node variables;
 * comma-separated short names: http, express, pg, ioredis, undici).
 */
export function instrumentationNames(env: NodeJS.ProcessEnv): string[] {
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const enabled = env.OTEL_NODE_ENABLED_INSTRUMENTATIONS
    ? list(env.OTEL_NODE_ENABLED_INSTRUMENTATIONS)
    : DEFAULT_INSTRUMENTATIONS;
  const disabled = new Set(list(env.OTEL_NODE_DISABLED_INSTRUMENTATIONS));
  return Object.keys(INSTRUMENTATIONS).filter((name) => enabled.includes(name) && !disabled.has(name));
}

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
let loaded: string[] = [];

/**
 * Starts the OpenTelemetry Node SDK (the instrumentations above) for
 * `serviceName` (OTEL_SERVICE_NAME wins), configured by the OTEL_* variables. Call it before the
 * instrumented modules are loaded: first thing in the process.
 */
export function startTracing(serviceName: string): boolean {
  // eslint-disable-next-line no-restricted-properties -- the OTEL_* variables are read by the OpenTelemetry SDK itself
  const env = process.env;
  if (sdk || !tracingRequested(env)) return false;
  env.OTEL_SERVICE_NAME ??= serviceName;
  loaded = instrumentationNames(env);
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  sdk = new NodeSDK({ instrumentations: loaded.map((name) => INSTRUMENTATIONS[name]()) });
  sdk.start();
  const stop = () => void sdk?.shutdown().catch(() => undefined);
  process.once('beforeExit', stop);
  return true;
}

/** Whether the SDK runs in this process (spans are real, with ids; outgoing calls carry a traceparent). */
export function tracingActive(): boolean {
  return sdk !== null;
}

/** Whether the SDK runs with the instrumentation `name` (undici: outgoing calls get their traceparent from it). */
export function instrumented(name: string): boolean {
  return sdk !== null && loaded.includes(name);
}

/** Flushes and stops the SDK (graceful shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = null;
  loaded = [];
}
