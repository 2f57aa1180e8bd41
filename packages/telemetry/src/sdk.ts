import { context, propagation, trace, diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { tracingSettings, type TracingSettings } from './config';

export interface Telemetry {
  readonly settings: TracingSettings;
  /** True when finished spans leave the process (OTLP or console). */
  readonly exporting: boolean;
  /** Sends what is buffered (tests; before a planned exit). */
  forceFlush(): Promise<void>;
  /** Flushes and stops exporting; call last in the shutdown order. */
  shutdown(): Promise<void>;
}

let installed: Telemetry | undefined;

/** Propagation and context work even before (and without) startTelemetry: a library may inject or read at once. */
let basicsInstalled = false;
export function installContextAndPropagation(): void {
  if (basicsInstalled) return;
  basicsInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function exporterOf(settings: TracingSettings): SpanExporter | undefined {
  if (settings.exporter === 'otlp') return new OTLPTraceExporter();
  if (settings.exporter === 'console') return new ConsoleSpanExporter();
  return undefined;
}

/** OpenTelemetry's own complaints (an unreachable collector) go to our log, at warn, never to the console. */
function diagnostics(warn: ((msg: string) => void) | undefined): void {
  if (!warn) return;
  const logger: DiagLogger = {
    error: (msg) => warn(msg),
    warn: (msg) => warn(msg),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}

/**
 * Starts tracing for this process, once (later calls return the first): W3C trace context, the async context that
 * carries the current span, and a tracer provider configured by the OTEL_* variables.
 *
 * Without an exporter every span is a non-recording one: it still gets its own span id and keeps the incoming
 * trace id (an incoming `traceparent` is continued, never replaced), so the logs carry trace_id/span_id for the
 * price of two random numbers, and nothing is buffered. With an exporter, spans go through a batch processor
 * (OTLP/HTTP by default).
 */
export function startTelemetry(
  service: string,
  options: {
    env?: Record<string, string | undefined>;
    warn?: (msg: string) => void;
    /** Where spans go instead of what OTEL_TRACES_EXPORTER says (tests: an InMemorySpanExporter). */
    exporter?: SpanExporter;
  } = {},
): Telemetry {
  if (installed) return installed;
  const settings = tracingSettings(service, options.env ?? process.env);
  installContextAndPropagation();
  diagnostics(options.warn);
  if (settings.disabled) {
    installed = {
      settings,
      exporting: false,
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    };
    return installed;
  }
  const exporter = options.exporter ?? exporterOf(settings);
  const resource = detectResources({ detectors: [envDetector] }).merge(
    resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
  );
  const provider = new TracerProvider({
    resource,
    sampler: exporter ? samplerOf(settings) : new AlwaysOffSampler(),
    spanProcessors: exporter ? [new BatchSpanProcessor({ exporter, ...settings.batch })] : [],
  });
  trace.setGlobalTracerProvider(provider);
  installed = {
    settings,
    exporting: exporter !== undefined,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  return installed;
}

/** The running telemetry, if startTelemetry was called. */
export function currentTelemetry(): Telemetry | undefined {
  return installed;
}
