import { BullMQOtel } from 'bullmq-otel';

/**
 * BullMQ's `telemetry` option, for a Queue and its Worker: adding a job makes a producer span (a child of the
 * active span: the request or event that asked for the PDF, SMS or email) and stores its trace context in the
 * job; the worker processes the job inside a consumer span continuing it. Spans go wherever startTelemetry sent
 * the rest (nowhere without an exporter).
 */
export function queueTelemetry(service: string): BullMQOtel {
  return new BullMQOtel({ tracerName: `${service}-queues` });
}
