import { isDatabaseUnavailable } from './database-errors';

/** What a Prisma SQL driver adapter offers (structural: no dependency on Prisma's types). */
interface RetryableAdapter {
  queryRaw(params: unknown): Promise<unknown>;
  executeRaw(params: unknown): Promise<number>;
  startTransaction(isolationLevel?: unknown): Promise<unknown>;
}
interface AdapterFactory<A> {
  connect(): Promise<A>;
}

const RETRIED = new Set(['queryRaw', 'executeRaw', 'startTransaction']);

/**
 * Wraps a Prisma driver adapter factory (e.g. `new PrismaPg(...)`) so that a statement run outside a transaction, or
 * the start of a transaction, that fails because its pooled connection died (a Postgres restart kills every
 * session: 57P01, "Connection terminated unexpectedly") is tried once more on a fresh connection (issue 14: "retried
 * once where safe"). Safe because Postgres rolled the failed statement back and a BEGIN that failed began nothing.
 * Statements inside a transaction are never retried here: the whole transaction is gone, and the error reaches the
 * error handler as a 503 with Retry-After.
 */
export function retryOnConnectionLoss<A extends RetryableAdapter, F extends AdapterFactory<A>>(
  factory: F,
  onRetry: (method: string, err: unknown) => void = () => {},
): F {
  return new Proxy(factory, {
    get(target, prop, receiver) {
      if (prop !== 'connect') return Reflect.get(target, prop, receiver) as unknown;
      return async () => {
        const adapter = await target.connect();
        return new Proxy(adapter, {
          get(inner, name, innerReceiver) {
            const value = Reflect.get(inner, name, innerReceiver) as unknown;
            if (typeof name !== 'string' || !RETRIED.has(name) || typeof value !== 'function') return value;
            return async (...args: unknown[]) => {
              try {
                return (await (value as (...a: unknown[]) => Promise<unknown>).apply(inner, args)) as unknown;
              } catch (err) {
                if (!isDatabaseUnavailable(err)) throw err;
                onRetry(name, err);
                return (await (value as (...a: unknown[]) => Promise<unknown>).apply(inner, args)) as unknown;
              }
            };
          },
        });
      };
    },
  });
}
