import { Attributes, context, Link, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('agora');

/**
 * Runs `fn` in a span named `name` (a child of the active one), ending it with the outcome. With
 * tracing off this is a no-op span. Attributes name agents, capabilities, costs and states, never
 * secrets or payment headers.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (set: (a: Attributes) => void) => Promise<T>, opts: { links?: Link[]; kind?: SpanKind } = {}): Promise<T> {
  return tracer.startActiveSpan(name, { attributes, links: opts.links, kind: opts.kind }, async (span) => {
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
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
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
  return span && span.traceId !== '00000000000000000000000000000000' ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

export { SpanKind };
