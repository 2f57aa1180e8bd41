export { tracingSettings, type TracingSettings, type TracesExporter, type SamplerName } from './config';
export { startTelemetry, currentTelemetry, installContextAndPropagation, type Telemetry } from './sdk';
export {
  carrierOf,
  context,
  contextFrom,
  currentTraceId,
  injectInto,
  inSpan,
  recordFailure,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  traceFields,
  tracer,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanOptions,
  type TraceCarrier,
} from './tracing';
export { queueTelemetry } from './queues';
/** For tests: spans kept in memory (startTelemetry's `exporter`). */
export { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
