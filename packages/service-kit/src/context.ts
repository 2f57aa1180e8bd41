import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Per-request (or per-event) context so every log line carries the correlation id without threading it by hand. */
export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's id only if it is a sane token; anything else is replaced so logs cannot be polluted. */
export function correlationIdFrom(value: unknown): string {
  return typeof value === 'string' && SAFE_ID.test(value) ? value : randomUUID();
}
