/**
 * Reads the standard OpenTelemetry environment variables this platform honours
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). The OTLP exporter reads its
 * own (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION); the rest is decided here.
 */
export type TracesExporter = 'otlp' | 'console' | 'none';

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

export interface TracingSettings {
  /** OTEL_SERVICE_NAME, else the service's own name. */
  serviceName: string;
  /** Where finished spans go; 'none' still gives every request and event a trace id for the logs. */
  exporter: TracesExporter;
  sampler: SamplerName;
  /** OTEL_TRACES_SAMPLER_ARG for the ratio samplers (0..1, default 1). */
  samplerRatio: number;
  /** OTEL_BSP_*: the batch span processor's schedule and bounds. */
  batch: {
    scheduledDelayMillis: number;
    maxQueueSize: number;
    maxExportBatchSize: number;
    exportTimeoutMillis: number;
  };
  /** OTEL_SDK_DISABLED=true: no ids, no spans (incoming trace context is still passed on untouched). */
  disabled: boolean;
}

type Env = Record<string, string | undefined>;

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number (got "${raw}")`);
  return n;
}

/**
 * The exporter: OTEL_TRACES_EXPORTER when set (otlp, console or none). Unset, spans are exported over OTLP only
 * when an OTLP endpoint is configured: the default `npm start` has no collector, and a process that keeps failing
 * to reach localhost:4318 would only fill the logs.
 */
function exporterOf(env: Env): TracesExporter {
  const raw = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (raw) {
    // A list is allowed by the specification; the first value we know wins ("otlp,console" exports over OTLP).
    const known = raw
      .split(',')
      .map((s) => s.trim())
      .find((s): s is TracesExporter => s === 'otlp' || s === 'console' || s === 'none');
    if (!known) throw new Error(`OTEL_TRACES_EXPORTER must be otlp, console or none (got "${raw}")`);
    return known;
  }
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
    ? 'otlp'
    : 'none';
}

export function tracingSettings(service: string, env: Env = process.env): TracingSettings {
  const samplerRaw = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() ||
    'parentbased_always_on') as SamplerName;
  if (!SAMPLERS.includes(samplerRaw))
    throw new Error(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got "${samplerRaw}")`);
  const ratioRaw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = ratioRaw ? Number(ratioRaw) : 1;
  if (!(ratio >= 0 && ratio <= 1))
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${ratioRaw}")`);
  const maxQueueSize = positiveInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || service,
    exporter: exporterOf(env),
    sampler: samplerRaw,
    samplerRatio: ratio,
    batch: {
      scheduledDelayMillis: positiveInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
      maxQueueSize,
      maxExportBatchSize: Math.min(maxQueueSize, positiveInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512)),
      exportTimeoutMillis: positiveInt(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000),
    },
    disabled: env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true',
  };
}
