export { instrumented, startTracing } from './tracing';
export {
  activeSpanIds,
  activeTraceparent,
  inSpan,
  linkFrom,
  linksTo,
  recordSpan,
  SpanKind,
  traceCarrier,
  traceLogFields,
} from './spans';
export type { SpanIds } from './spans';
