// Imported first by main.ts: OpenTelemetry must patch http, express, pg, ioredis and undici before
// anything loads them. Off unless the OTEL_* variables ask for traces (libs/tracing).
import { startTracing } from '@app/tracing';

startTracing('agora-worker');
