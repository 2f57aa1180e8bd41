import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

export { context, SpanKind, SpanStatusCode, trace, ROOT_CONTEXT };
export type { Attributes, Context, Link, Span };

const TRACER_NAME = '@tyres/telemetry';
/** The tracer of this platform's own spans (HTTP, outbox, broker, WebSocket); resolved per call, so it follows the provider. */
export const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * W3C trace context as it travels between processes: HTTP headers, AMQP message headers, the outbox row
 * (`trace_context`). Only these two keys, so nothing else is ever copied from a carrier.
 */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** Reads `traceparent`/`tracestate` from HTTP headers (string or repeated) or AMQP headers (string or Buffer). */
const getter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(String);
    if (Buffer.isBuffer(value)) return value.toString('latin1');
    return undefined;
  },
};
const setter: TextMapSetter<Record<string, unknown>> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};

/** The context a carrier continues (ROOT-based when it has no valid traceparent). */
export function contextFrom(
  carrier: TraceCarrier | Readonly<Record<string, unknown>> | null | undefined,
  base: Context = ROOT_CONTEXT,
): Context {
  if (!carrier || (carrier as TraceCarrier).traceparent === undefined) return base;
  return propagation.extract(base, carrier as Record<string, unknown>, getter);
}

/** Writes the context's trace headers into `carrier` (nothing when the context has no span). */
export function injectInto<T extends Record<string, unknown>>(
  carrier: T,
  ctx: Context = context.active(),
): T {
  propagation.inject(ctx, carrier, setter);
  return carrier;
}

/** The context's trace headers as a small object (the outbox row's `trace_context`); undefined without a span. */
export function carrierOf(ctx: Context = context.active()): TraceCarrier | undefined {
  const carrier: Record<string, unknown> = {};
  propagation.inject(ctx, carrier, setter);
  if (typeof carrier.traceparent !== 'string') return undefined;
  const out: TraceCarrier = { traceparent: carrier.traceparent };
  if (typeof carrier.tracestate === 'string' && carrier.tracestate) out.tracestate = carrier.tracestate;
  return out;
}

/** `trace_id` and `span_id` of the active span, for a log line; empty outside any trace. */
export function traceFields(ctx: Context = context.active()): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(ctx);
  if (!span) return {};
  const sc = span.spanContext();
  return isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {};
}

/** The active trace id (e.g. for an error answer), if any. */
export function currentTraceId(ctx: Context = context.active()): string | undefined {
  return traceFields(ctx).trace_id;
}

/** Marks a span failed with the error (message only: stacks stay in the logs). */
export function recordFailure(span: Span, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.recordException(err instanceof Error ? err : message);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** Parent context; the active one by default. */
  parent?: Context;
}

/**
 * Runs `fn` inside a new span (the active span while it runs) and ends it when `fn` settles; a throw or rejection
 * marks it failed and is rethrown.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => T): T {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links },
    parent,
  );
  const fail = (err: unknown) => {
    recordFailure(span, err);
    span.end();
    throw err;
  };
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn, undefined, span);
  } catch (err) {
    return fail(err);
  }
  if (result instanceof Promise) {
    return result.then((value: unknown) => {
      span.end();
      return value;
    }, fail) as T;
  }
  span.end();
  return result;
}
