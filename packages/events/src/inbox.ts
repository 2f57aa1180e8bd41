import type { EventHandler, HandlerContext } from './bus';
import type { EventEnvelope } from './envelope';
import { quoteIdent, type SqlExecutor, type TransactionOptions, type TransactionRunner } from './sql';

export type HandleOnceResult<T> = { status: 'handled'; result: T } | { status: 'duplicate' };

/**
 * Runs `fn` once per (eventId, handler), inside the caller's transaction `tx`: records the pair in
 * `inbox_events` first (INSERT ... ON CONFLICT DO NOTHING, so a duplicate never aborts the transaction) and
 * skips `fn` when the pair is already there. A concurrent duplicate waits for the first transaction and is
 * skipped if it committed (or runs if it rolled back).
 */
export async function handleOnce<T>(
  tx: SqlExecutor,
  options: { schema: string; eventId: string; handler: string },
  fn: () => Promise<T>,
): Promise<HandleOnceResult<T>> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO ${quoteIdent(options.schema)}."inbox_events" ("event_id", "handler") VALUES ($1::uuid, $2)
     ON CONFLICT ("event_id", "handler") DO NOTHING`,
    options.eventId,
    options.handler,
  );
  if (Number(inserted) === 0) return { status: 'duplicate' };
  return { status: 'handled', result: await fn() };
}

/**
 * The batch form of `handleOnce`: records (eventId, handler) for every id in one statement, inside the caller's
 * transaction, and returns the ids recorded now (first seen), each once. Ids already there (handled before, or twice
 * in `eventIds`) are left out: skip their effect. Ids are inserted in sorted order, so two batches sharing ids
 * wait for each other rather than deadlock; a concurrent duplicate waits for the other transaction, as in
 * `handleOnce`.
 */
export async function claimInbox(
  tx: SqlExecutor,
  options: { schema: string; handler: string; eventIds: readonly string[] },
): Promise<Set<string>> {
  const ids = [...new Set(options.eventIds)].sort();
  if (ids.length === 0) return new Set();
  const rows = await tx.$queryRawUnsafe<{ event_id: string }[]>(
    `INSERT INTO ${quoteIdent(options.schema)}."inbox_events" ("event_id", "handler")
     SELECT id, $2 FROM unnest($1::uuid[]) AS id ORDER BY id
     ON CONFLICT ("event_id", "handler") DO NOTHING
     RETURNING "event_id"::text AS event_id`,
    ids,
    options.handler,
  );
  // Postgres hands uuids back in lower case: map them back to the ids as given.
  const given = new Map(ids.map((id) => [id.toLowerCase(), id]));
  return new Set(rows.map((r) => given.get(r.event_id) ?? r.event_id));
}

export interface InboxOptions {
  /** The service's Postgres schema holding `inbox_events`. */
  schema: string;
  /** Passed to `$transaction` (Prisma: raise `timeout` for slow handlers; default Prisma timeout is 5 s). */
  transactionOptions?: TransactionOptions;
}

/** The work of an idempotent handler: runs in a transaction together with the inbox row. */
export type InboxWork<TTx, E extends EventEnvelope> = (
  tx: TTx,
  event: E,
  ctx: HandlerContext,
) => Promise<void>;

/**
 * Wraps `fn` into a bus handler that opens a transaction, records (event.id, handlerName) in the inbox and
 * runs `fn(tx, event, ctx)` in the same transaction: the effect and the inbox row commit together, and a
 * redelivered event is acknowledged without running `fn` again.
 *
 *   bus.subscribe(BookingCreated, inboxHandler(prisma, 'jobs.onBookingCreated', async (tx, event) => {...},
 *     { schema: 'jobs' }));
 *
 * `db` is anything with a Prisma-style `$transaction(fn)`: a PrismaClient, or `pgExecutor(pool)`.
 * `handlerName` must be unique per effect and stable across deploys (it is the idempotency key).
 */
export function inboxHandler<TTx extends SqlExecutor, E extends EventEnvelope>(
  db: TransactionRunner<TTx>,
  handlerName: string,
  fn: InboxWork<TTx, E>,
  options: InboxOptions,
): EventHandler<E> {
  quoteIdent(options.schema);
  if (!handlerName) throw new Error('inboxHandler needs a handler name');
  return async (event, ctx) => {
    const outcome = await db.$transaction(
      (tx) =>
        handleOnce(tx, { schema: options.schema, eventId: event.id, handler: handlerName }, () =>
          fn(tx, event, ctx),
        ),
      options.transactionOptions,
    );
    if (outcome.status === 'duplicate') {
      ctx.logger.info({ handler: handlerName }, 'event already handled; skipped (inbox)');
      return 'duplicate';
    }
    return undefined;
  };
}

export interface Inbox<TTx extends SqlExecutor> {
  readonly schema: string;
  /** Same as `inboxHandler(db, handlerName, fn, { schema })`. */
  handler<E extends EventEnvelope>(handlerName: string, fn: InboxWork<TTx, E>): EventHandler<E>;
  handleOnce<T>(
    tx: SqlExecutor,
    eventId: string,
    handlerName: string,
    fn: () => Promise<T>,
  ): Promise<HandleOnceResult<T>>;
  /** Same as `claimInbox(tx, { schema, handler: handlerName, eventIds })`. */
  claim(tx: SqlExecutor, eventIds: readonly string[], handlerName: string): Promise<Set<string>>;
}

/** Binds the inbox to a database and schema: `inbox.handler('jobs.onBookingCreated', async (tx, event) => ...)`. */
export function createInbox<TTx extends SqlExecutor>(
  db: TransactionRunner<TTx>,
  options: InboxOptions,
): Inbox<TTx> {
  quoteIdent(options.schema);
  return {
    schema: options.schema,
    handler: (handlerName, fn) => inboxHandler(db, handlerName, fn, options),
    handleOnce: (tx, eventId, handler, fn) =>
      handleOnce(tx, { schema: options.schema, eventId, handler }, fn),
    claim: (tx, eventIds, handler) => claimInbox(tx, { schema: options.schema, handler, eventIds }),
  };
}
