import {
  Attributes,
  context,
  isSpanContextValid,
  Link,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { tracingActive } from './tracing';

const tracer = trace.getTracer('agora');

/** A span's place: its trace and its own id (W3C hex), and whether its trace is sampled (absent: sampled). */
export interface SpanIds {
  traceId: string;
  spanId: string;
  sampled?: boolean;
}

/**
 * Runs `fn` in a span named `name` (a child of the active one), ending it with the outcome. With
 * tracing off this is a no-op span. Attributes name agents, capabilities, costs and states, never
 * secrets or payment headers. `parent` puts the span in another trace when the active one is not
 * it (a chain's hop whose request did not carry the chain's trace): a child of that span, linked
 * to the active one.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (set: (a: Attributes) => void) => Promise<T>,
  opts: { links?: Link[]; kind?: SpanKind; parent?: SpanIds } = {},
): Promise<T> {
  let ctx = context.active();
  let links = opts.links;
  if (opts.parent && tracingActive()) {
    const current = trace.getSpanContext(ctx);
    if (current?.traceId !== opts.parent.traceId) {
      const { traceId, spanId, sampled } = opts.parent;
      ctx = trace.setSpanContext(ctx, {
        traceId,
        spanId,
        traceFlags: sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED,
        isRemote: true,
      });
      if (current && isSpanContextValid(current)) links = [...(links ?? []), { context: current }];
    }
  }
  return tracer.startActiveSpan(name, { attributes, links, kind: opts.kind }, ctx, async (span) => {
    try {
      const result = await fn((a) => span.setAttributes(a));
      return result;
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The active trace context as a W3C carrier (`traceparent`, `tracestate`), to travel with a job. */
export function traceCarrier(): Record<string, string> {
  // Off (the default), there is nothing to carry: jobs, outbox rows and callbacks pay no propagation call.
  if (!tracingActive()) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The active span's ids while tracing is on (null when off: no-op spans have none). */
export function activeSpanIds(): SpanIds | null {
  if (!tracingActive()) return null;
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span)
    ? { traceId: span.traceId, spanId: span.spanId, sampled: (span.traceFlags & TraceFlags.SAMPLED) !== 0 }
    : null;
}

/** The active span's W3C traceparent, to keep on a row (an outbox event, a delivery); null when tracing is off. */
export function activeTraceparent(): string | null {
  return traceCarrier().traceparent ?? null;
}

/**
 * Records a finished span (a child of the active one) from `startTime` to now: for work whose links
 * are known only once it is done (a fan-out learns its events' traceparents from the rows it reads).
 */
export function recordSpan(name: string, startTime: number, attributes: Attributes, links: Link[]): void {
  tracer.startSpan(name, { attributes, links, startTime }).end();
}

/** Links to the spans the traceparents name (rows that kept them), skipping nulls and repeats. */
export function linksTo(traceparents: readonly (string | null | undefined)[]): Link[] {
  return [...new Set(traceparents)].flatMap((traceparent) => (traceparent ? linkFrom({ traceparent }) : []));
}

/** A link to the span a carrier names (the job's producer), or none. */
export function linkFrom(carrier: Record<string, string> | undefined): Link[] {
  if (!carrier?.traceparent) return [];
  const spanContext = trace.getSpanContext(propagation.extract(context.active(), carrier));
  return spanContext ? [{ context: spanContext }] : [];
}

/** Fields every log line carries while a span is active (a pino mixin): the trace and span ids. */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active())?.spanContext();
  return span && span.traceId !== '00000000000000000000000000000000'
    ? { trace_id: span.traceId, span_id: span.spanId }
    : {};
}

export { SpanKind };
