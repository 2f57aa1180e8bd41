import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { traceFields } from '@tyres/telemetry';
import { currentCorrelationId } from './context';

export type { Logger } from 'pino';

/** A service's logger (JSON lines on stdout; `destination` for tests). */
export function createLogger(
  service: string,
  options: LoggerOptions = {},
  destination?: DestinationStream,
): Logger {
  const logOptions: LoggerOptions = {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written inside a request or event handler carries its correlation id, and inside a trace its
    // trace_id/span_id (with or without an exporter), so a log line leads to its trace and back.
    mixin: () => {
      const correlationId = currentCorrelationId();
      const trace = traceFields();
      return correlationId ? { correlationId, ...trace } : trace;
    },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-identity-token"]',
        '*.password',
      ],
      censor: '[redacted]',
    },
    ...options,
  };
  return destination ? pino(logOptions, destination) : pino(logOptions);
}

/**
 * A request URL fit for a log line: the capability tokens customers get in links (issue 18: "manage my booking"
 * /api/manage/{token}, "Pay now" /api/pay/{token}, unsubscribe /api/unsubscribe/{token}, and the public site's
 * /manage, /pay and /unsubscribe pages) are replaced by `[token]`, so whoever reads the logs cannot open, cancel
 * or pay through them. The query string is dropped too (nothing a log needs; it could carry the same).
 */
export function loggableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const path = url.split('?')[0] ?? '';
  return path.replace(/^((?:\/api)?\/(?:manage|pay|unsubscribe)\/)[^/]+/i, '$1[token]');
}
