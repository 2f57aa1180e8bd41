import { carrierOf, type TraceCarrier } from '@tyres/telemetry';
import { contracts } from './contracts';
import type { EventEnvelope } from './envelope';
import { errorFields, errorMessage, noopLogger, type Logger } from './logger';
import { callMetrics, type EventMetrics } from './metrics';
import type { Publisher } from './publisher';
import { parseEnvelope, type ContractRegistry } from './registry';
import { quoteIdent, type SqlExecutor, type TransactionRunner } from './sql';

export interface OutboxOptions {
  /** The service's Postgres schema holding `outbox_events`, e.g. "jobs". */
  schema: string;
  /** Validate envelopes before writing (default true; uses the catalogue). */
  validate?: boolean;
  registry?: ContractRegistry;
  /**
   * Called after each `enqueue` that wrote rows (before the caller's commit): the runtime points it at its relay's
   * `expectSoon()`, so rows written in this process are published within the relay's `soonIntervalMs` even on paths
   * that never call `wake()` after their commit.
   */
  onEnqueue?: () => void;
}

export interface Outbox {
  readonly schema: string;
  /** Writes the events inside the caller's transaction (`tx`); they are published after it commits. */
  enqueue(tx: SqlExecutor, events: EventEnvelope | readonly EventEnvelope[]): Promise<void>;
  /**
   * Whether `enqueue` wrote anything with this transaction: a consumer wakes the relay after its commit only then
   * (a wake-up with nothing to publish still costs a read).
   */
  wroteIn(tx: SqlExecutor): boolean;
}

/**
 * Inserts outbox rows with the caller's executor: a Prisma interactive-transaction client (`tx`), a
 * `pgExecutor` transaction, or anything with `$executeRawUnsafe`. Call it in the same transaction as the state
 * change. Invalid events throw (EventParseError) so the transaction rolls back.
 *
 * The row keeps the W3C trace context active at this moment (`trace_context`: the request's or the handled
 * event's span): the relay publishes the row later, outside any request, and continues that trace from it.
 */
export async function enqueue(
  tx: SqlExecutor,
  events: EventEnvelope | readonly EventEnvelope[],
  options: OutboxOptions,
): Promise<void> {
  const list: readonly EventEnvelope[] = Array.isArray(events) ? events : [events as EventEnvelope];
  if (list.length === 0) return;
  const table = `${quoteIdent(options.schema)}."outbox_events"`;
  const registry: ContractRegistry = options.registry ?? contracts;
  const trace = carrierOf();
  const traceContext = trace ? JSON.stringify(trace) : null;
  const values: unknown[] = [];
  const rows: string[] = [];
  for (const event of list) {
    const payload = options.validate === false ? event : parseEnvelope(event, registry).envelope;
    const n = values.length;
    rows.push(`($${n + 1}::uuid, $${n + 2}, $${n + 3}::jsonb, $${n + 4}::jsonb)`);
    values.push(payload.id, payload.type, JSON.stringify(payload), traceContext);
  }
  await tx.$executeRawUnsafe(
    `INSERT INTO ${table} ("id", "type", "payload", "trace_context") VALUES ${rows.join(', ')}`,
    ...values,
  );
}

/** Binds `enqueue` to a schema: `outbox.enqueue(tx, event)`. */
export function createOutbox(options: OutboxOptions): Outbox {
  quoteIdent(options.schema);
  const wrote = new WeakSet<SqlExecutor>();
  return {
    schema: options.schema,
    async enqueue(tx, events) {
      await enqueue(tx, events, options);
      if (!Array.isArray(events) || events.length > 0) {
        wrote.add(tx);
        options.onEnqueue?.();
      }
    },
    wroteIn: (tx) => wrote.has(tx),
  };
}

export interface OutboxRelayOptions {
  /** Runs transactions: a Prisma client or `pgExecutor(pool)`. */
  db: TransactionRunner;
  schema: string;
  /** Usually `createPublisher({ url, name: '<service>-publisher', prefix })`. */
  publisher: Pick<Publisher, 'publish'>;
  logger?: Logger;
  /**
   * Poll interval when idle (default `OUTBOX_RELAY_POLL_MS`, else 1000 ms; it was 250 ms: set 250 for the old
   * behaviour). `wake()` skips the wait. The poll is the fallback for rows no wake-up announces: rows written by
   * another process (a replica whose relay is down or busy, a script), retries whose `available_at` came, and rows
   * of paths that neither wake nor go through `expectSoon()`; they wait at most this long (the lag budget is 2 s).
   */
  intervalMs?: number;
  /**
   * Poll interval for `soonWindowMs` after `expectSoon()` (an `enqueue` in this process whose commit may not be
   * followed by a `wake()`): default `OUTBOX_RELAY_SOON_MS`, else 250 ms, the old idle poll.
   */
  soonIntervalMs?: number;
  /** How long `expectSoon()` keeps the fast poll (default `OUTBOX_RELAY_SOON_WINDOW_MS`, else 1500 ms). */
  soonWindowMs?: number;
  /** Rows claimed per transaction (default 100). */
  batchSize?: number;
  /** Per-row backoff after a failed publish: initialMs * multiplier^attempts, capped (1 s, x2, max 60 s). */
  backoff?: { initialMs?: number; multiplier?: number; maxMs?: number };
  /** Prisma interactive transaction timeout for one batch (default 60 s; pg ignores it). */
  transactionTimeoutMs?: number;
  /** Delete rows published longer ago than this (default 7 days; 0 disables). Checked every 10 minutes. */
  retainPublishedMs?: number;
  metrics?: EventMetrics;
}

export interface OutboxRelay {
  start(): void;
  /** Stops polling and waits for the running batch to finish. */
  stop(): Promise<void>;
  /** Publish now (e.g. right after a commit) instead of at the next poll. */
  wake(): void;
  /**
   * Rows are being written in this process (called by the outbox's `onEnqueue`, before the commit): poll every
   * `soonIntervalMs` for the next `soonWindowMs` instead of every `intervalMs`. Costs nothing by itself (no query;
   * a pending long sleep is only shortened).
   */
  expectSoon(): void;
  /** One batch: claim, publish, mark. Exposed for tests and scripts. */
  runOnce(): Promise<{ published: number; failed: number }>;
  isRunning(): boolean;
  /**
   * What waits to be published: rows not published yet (retrying ones included) and how long the oldest has been
   * waiting (ms; null when none). One indexed query.
   */
  pending(): Promise<{ count: number; oldestAgeMs: number | null }>;
  /** Adds metric hooks (besides `options.metrics`), e.g. when the relay was built by someone else (service-kit). */
  addMetrics(hooks: EventMetrics): void;
}

interface OutboxRow {
  id: string;
  type: string;
  payload: unknown;
  attempts: number;
  /** The producer's W3C trace context (null for rows written without one). */
  trace_context: unknown;
}

/** A duration from the environment (ms, >= 0), or the default when unset or not a number. */
function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Outbox rows in the order they were written (created_at, then id, as the claim orders them). */
function oldestFirst(a: { id: string; created_at: unknown }, b: { id: string; created_at: unknown }): number {
  const at = new Date(a.created_at as string | Date).getTime();
  const bt = new Date(b.created_at as string | Date).getTime();
  if (at !== bt) return at - bt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The row's trace context as the publisher takes it (jsonb arrives parsed from Prisma, as text from some drivers). */
function traceOf(raw: unknown): TraceCarrier | undefined {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  if (!value || typeof value !== 'object') return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

/**
 * Publishes pending outbox rows. Each batch runs in one transaction: `SELECT ... FOR UPDATE SKIP LOCKED`
 * (oldest first) so several replicas never publish the same row at once, publish each with confirms, then mark
 * sent rows `published_at = now()` and give failed rows `attempts + 1`, `last_error` and a later
 * `available_at`. With the broker down every publish fails fast, rows stay pending and are sent once it is
 * back. Delivery is at least once (a crash between confirm and commit republishes): consumers use the inbox.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const table = `${quoteIdent(options.schema)}."outbox_events"`;
  const log = (options.logger ?? noopLogger).child({ component: 'outbox-relay', schema: options.schema });
  const intervalMs = options.intervalMs ?? envMs('OUTBOX_RELAY_POLL_MS', 1000);
  const soonIntervalMs = Math.min(intervalMs, options.soonIntervalMs ?? envMs('OUTBOX_RELAY_SOON_MS', 250));
  const soonWindowMs = options.soonWindowMs ?? envMs('OUTBOX_RELAY_SOON_WINDOW_MS', 1500);
  /** Until when polls use soonIntervalMs (see expectSoon). */
  let soonUntil = 0;
  const batchSize = options.batchSize ?? 100;
  const initialMs = options.backoff?.initialMs ?? 1000;
  const multiplier = options.backoff?.multiplier ?? 2;
  const maxMs = options.backoff?.maxMs ?? 60_000;
  const txTimeout = options.transactionTimeoutMs ?? 60_000;
  const retainMs = options.retainPublishedMs ?? 7 * 24 * 3600_000;

  let running = false;
  let stopping = false;
  let woken = false;
  let loop: Promise<void> | undefined;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void; dueAt: number } | undefined;
  let lastPurge = 0;
  const metricHooks: EventMetrics[] = options.metrics ? [options.metrics] : [];

  const delayFor = (attempts: number) => Math.min(maxMs, Math.round(initialMs * multiplier ** attempts));

  async function runOnce(): Promise<{ published: number; failed: number }> {
    const started = Date.now();
    const result = await options.db.$transaction(
      async (tx) => {
        // Claimed and marked sent in one statement; rows whose publish fails are put back below, in the same
        // transaction, and a crash before the commit leaves every row of the batch pending. Oldest first.
        const rows = (
          await tx.$queryRawUnsafe<(OutboxRow & { created_at: unknown })[]>(
            `WITH claimed AS MATERIALIZED (
               SELECT "id" FROM ${table}
               WHERE "published_at" IS NULL AND "available_at" <= now()
               ORDER BY "created_at", "id"
               LIMIT $1::int
               FOR UPDATE SKIP LOCKED)
             UPDATE ${table} AS o SET "published_at" = now()
             FROM claimed c WHERE o."id" = c."id"
             RETURNING o."id"::text AS id, o."type", o."payload", o."attempts", o."trace_context", o."created_at"`,
            batchSize,
          )
        ).sort(oldestFirst);
        if (rows.length === 0) return { published: 0, failed: 0 };
        const outcomes = await Promise.allSettled(
          rows.map((row) => {
            const payload =
              typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
            // Validated by enqueue when the row was written: not parsed again here.
            return options.publisher.publish(payload as EventEnvelope, {
              trace: traceOf(row.trace_context),
              validated: true,
            });
          }),
        );
        const sent: string[] = [];
        const failed: { id: string; error: string; delay_ms: number }[] = [];
        outcomes.forEach((outcome, i) => {
          const row = rows[i] as OutboxRow;
          if (outcome.status === 'fulfilled') sent.push(row.id);
          else
            failed.push({
              id: row.id,
              error: errorMessage(outcome.reason),
              delay_ms: delayFor(row.attempts),
            });
        });
        if (failed.length > 0) {
          await tx.$executeRawUnsafe(
            `UPDATE ${table} AS o
             SET "published_at" = NULL,
                 "attempts" = o."attempts" + 1,
                 "last_error" = f.error,
                 "available_at" = now() + f.delay_ms * interval '1 millisecond'
             FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, error text, delay_ms integer)
             WHERE o."id" = f.id`,
            JSON.stringify(failed),
          );
          log.warn(
            { failed: failed.length, published: sent.length, firstError: failed[0]?.error },
            'outbox publish failed; rows stay pending',
          );
        } else {
          log.debug({ published: sent.length }, 'outbox batch published');
        }
        return { published: sent.length, failed: failed.length };
      },
      { timeout: txTimeout, maxWait: 10_000 },
    );
    callMetrics(metricHooks, 'outboxBatch', { ...result, durationMs: Date.now() - started });
    return result;
  }

  /**
   * Whether a batch could find anything: one indexed read outside any transaction, so an idle poll, or a wake() after
   * a commit that wrote no event (consumers wake the relay after every handled event), costs one statement rather
   * than a transaction with a locking SELECT. Rows locked by another replica's batch still answer yes (its batch
   * or the next one publishes them). Without a plain executor (a bare transaction runner) every poll runs a batch.
   */
  async function hasPending(): Promise<boolean> {
    const exec = options.db as Partial<SqlExecutor>;
    if (typeof exec.$queryRawUnsafe !== 'function') return true;
    const rows = await exec.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM ${table} WHERE "published_at" IS NULL AND "available_at" <= now() LIMIT 1`,
    );
    return rows.length > 0;
  }

  async function purgePublished(): Promise<void> {
    if (retainMs <= 0 || Date.now() - lastPurge < 10 * 60_000) return;
    lastPurge = Date.now();
    try {
      await options.db.$transaction((tx) =>
        Promise.resolve(
          tx.$executeRawUnsafe(
            `DELETE FROM ${table} WHERE "id" IN (
               SELECT "id" FROM ${table}
               WHERE "published_at" IS NOT NULL AND "published_at" < now() - $1::int * interval '1 millisecond'
               LIMIT 10000)`,
            Math.min(retainMs, 2 ** 31 - 1),
          ),
        ),
      );
    } catch (err) {
      log.warn(errorFields(err), 'outbox purge failed');
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sleeper = undefined;
        resolve();
      }, ms);
      sleeper = { timer, resolve, dueAt: Date.now() + ms };
    });
  }

  /** The idle wait: soonIntervalMs while expectSoon's window is open, intervalMs otherwise. */
  const idleWait = () => (Date.now() < soonUntil ? soonIntervalMs : intervalMs);

  function interrupt(): void {
    const s = sleeper;
    if (!s) return;
    sleeper = undefined;
    clearTimeout(s.timer);
    s.resolve();
  }

  async function run(): Promise<void> {
    let dbFailures = 0;
    while (!stopping) {
      woken = false;
      let result: { published: number; failed: number } | undefined;
      try {
        result = (await hasPending()) ? await runOnce() : { published: 0, failed: 0 };
        dbFailures = 0;
        await purgePublished();
      } catch (err) {
        dbFailures += 1;
        log.error({ ...errorFields(err), dbFailures }, 'outbox relay batch failed');
      }
      if (stopping) break;
      if (result && result.failed === 0 && result.published >= batchSize) continue; // more are waiting
      if (woken) continue;
      await sleep(result ? idleWait() : Math.min(30_000, intervalMs * 2 ** Math.min(dbFailures, 10)));
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = run().finally(() => {
        running = false;
      });
    },
    async stop() {
      stopping = true;
      interrupt();
      await loop;
    },
    wake() {
      woken = true;
      interrupt();
    },
    expectSoon() {
      soonUntil = Date.now() + soonWindowMs;
      // Shorten a longer idle sleep to soonIntervalMs from now (no query now: the rows are not committed yet).
      const s = sleeper;
      if (!s || s.dueAt <= Date.now() + soonIntervalMs) return;
      clearTimeout(s.timer);
      s.dueAt = Date.now() + soonIntervalMs;
      s.timer = setTimeout(() => {
        if (sleeper === s) sleeper = undefined;
        s.resolve();
      }, soonIntervalMs);
    },
    runOnce,
    isRunning: () => running,
    async pending() {
      const rows = await options.db.$transaction((tx) =>
        Promise.resolve(
          tx.$queryRawUnsafe<{ n: number; age_ms: number | null }[]>(
            `SELECT count(*)::int AS n,
                    (extract(epoch FROM (now() - min("created_at"))) * 1000)::float8 AS age_ms
               FROM ${table} WHERE "published_at" IS NULL`,
          ),
        ),
      );
      const row = rows[0];
      return { count: Number(row?.n ?? 0), oldestAgeMs: row?.age_ms == null ? null : Number(row.age_ms) };
    },
    addMetrics(hooks) {
      metricHooks.push(hooks);
    },
  };
}
