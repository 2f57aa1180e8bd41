import { isDatabaseUnavailable, isTransactionConflict } from './database-errors';
import { HttpError, conflict, notFound } from './errors';

interface PrismaLikeError {
  code?: string;
  meta?: {
    target?: string | string[];
    modelName?: string;
    driverAdapterError?: {
      cause?: {
        kind?: string;
        originalCode?: string;
        constraint?: { index?: string; fields?: string[] } | string;
      };
    };
  };
}

/**
 * The constraint a unique/exclusion violation hit. With @prisma/adapter-pg, P2002 may carry no meta.target: the
 * name sits under meta.driverAdapterError.cause.constraint (architecture section 10).
 */
export function violatedConstraint(err: unknown): string | undefined {
  const e = err as PrismaLikeError;
  const cause = e?.meta?.driverAdapterError?.cause;
  const c = cause?.constraint;
  if (typeof c === 'string') return c;
  if (c?.index) return c.index;
  if (c?.fields) return c.fields.join(',');
  const target = e?.meta?.target;
  return Array.isArray(target) ? target.join(',') : target;
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as PrismaLikeError;
  const cause = e?.meta?.driverAdapterError?.cause;
  const unique =
    e?.code === 'P2002' || cause?.originalCode === '23505' || (err as { code?: string })?.code === '23505';
  if (!unique) return false;
  return constraint === undefined || (violatedConstraint(err) ?? '').includes(constraint);
}

export function isExclusionViolation(err: unknown): boolean {
  const cause = (err as PrismaLikeError)?.meta?.driverAdapterError?.cause;
  return cause?.originalCode === '23P01' || (err as { code?: string })?.code === '23P01';
}

/** A lost serialization race or a deadlock, from Prisma or from `pg` directly (one rule: isTransactionConflict). */
export function isSerializationFailure(err: unknown): boolean {
  return isTransactionConflict(err);
}

/**
 * Retries a transaction that lost a serialization race, a bounded number of times with jitter; and, once, a
 * transaction whose connection dropped (a Postgres restart): Postgres rolled it back, so running it again is safe.
 * What still fails reaches the error handler as a 503 with Retry-After.
 */
export async function withSerializationRetry<T>(fn: () => PromiseLike<T>, attempts = 5): Promise<T> {
  let connectionRetried = false;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (isDatabaseUnavailable(err) && !connectionRetried) {
        connectionRetried = true;
        await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
        continue;
      }
      if (!isSerializationFailure(err) || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 10 * i + Math.random() * 20));
    }
  }
}

/** Maps well-known Prisma failures to HTTP errors so a race answers 409, a missing row 404, never 500. */
export function mapPrismaError(
  err: unknown,
  messages: { conflict?: string; notFound?: string } = {},
): HttpError | undefined {
  if (isUniqueViolation(err) || isExclusionViolation(err))
    return conflict(messages.conflict ?? 'That conflicts with an existing record', {
      constraint: violatedConstraint(err),
    });
  if ((err as PrismaLikeError)?.code === 'P2025') return notFound(messages.notFound ?? 'Not found');
  return undefined;
}
