/* Preloaded (node -r) into the bench's traced api role before its imports, as apps/api/src/main.ts
   imports instrument.ts first: starts the OpenTelemetry SDK (the instrumentations libs/tracing loads:
   http and undici unless OTEL_NODE_ENABLED_INSTRUMENTATIONS says otherwise) configured by the OTEL_*
   variables the bench sets. */
import { startTracing } from '@app/tracing';

if (!startTracing('agora-bench-api')) throw new Error('bench-tracing: the OTEL_* variables do not ask for traces');
