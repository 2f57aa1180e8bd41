/**
 * Recognises "the database is briefly unreachable" (a restart, a failover, a dropped connection, an exhausted pool)
 * and lost serialization races, whichever client raised them: Prisma with @prisma/adapter-pg (the driver error sits
 * under `meta.driverAdapterError.cause` or `cause`), or `pg` directly (reporting's projections, outbox relays).
 * Such a failure is not the caller's fault and not a bug: the answer is 503 with Retry-After, never 500 (issue 14).
 */
interface DriverCause {
  kind?: string;
  code?: string;
  originalCode?: string;
}
interface AnyDbError {
  code?: string;
  name?: string;
  message?: string;
  cause?: DriverCause | AnyDbError;
  meta?: { driverAdapterError?: { cause?: DriverCause } };
}

/** Adapter error kinds that mean the connection, not the statement, failed. */
const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/** Prisma error codes for an unreachable server, a pool timeout, a closed server connection, a transaction that could not start. */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
/** Node socket errors. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * Postgres SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect
 * now: a restart), 53300 (too many connections).
 */
function unavailableSqlState(code: string | undefined): boolean {
  return (
    !!code &&
    (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
  );
}
const CONNECTION_MESSAGES =
  /Connection terminated|terminating connection|Client has encountered a connection error|Connection ended unexpectedly|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|Can't reach database server/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as AnyDbError;
  if (
    e.code &&
    (UNAVAILABLE_PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || unavailableSqlState(e.code))
  )
    return true;
  const causes = [e.meta?.driverAdapterError?.cause, e.cause as DriverCause | undefined];
  for (const cause of causes) {
    if (!cause) continue;
    if (cause.kind && UNAVAILABLE_KINDS.has(cause.kind)) return true;
    if (
      unavailableSqlState(cause.originalCode) ||
      (cause.kind === 'postgres' && unavailableSqlState(cause.code))
    )
      return true;
  }
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** A transaction that lost a serialization race or a deadlock (40001, 40P01), however the client reported it. */
export function isTransactionConflict(err: unknown): boolean {
  const e = err as AnyDbError | null;
  if (!e || typeof e !== 'object') return false;
  const cause = e.meta?.driverAdapterError?.cause ?? (e.cause as DriverCause | undefined);
  return (
    e.code === 'P2034' ||
    e.code === '40001' ||
    e.code === '40P01' ||
    cause?.kind === 'TransactionWriteConflict' ||
    cause?.originalCode === '40001' ||
    cause?.originalCode === '40P01'
  );
}

/** Seconds a client should wait before retrying after a database blip (a Postgres restart takes 1-3 s). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
export const DATABASE_UNAVAILABLE_MESSAGE =
  'We could not complete that just now because the system is briefly unavailable. Please try again in a moment.';
