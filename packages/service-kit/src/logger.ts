import pino, { type Logger, type LoggerOptions } from 'pino';
import { currentCorrelationId } from './context';

export type { Logger } from 'pino';

export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  return pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written inside a request or event handler carries its correlation id.
    mixin: () => {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
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
  });
}
