/**
 * The minimal SQL surface the outbox and inbox need. A Prisma client, a Prisma interactive-transaction client
 * and `pgExecutor(pool | client)` all satisfy it.
 */
export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

export interface TransactionOptions {
  /** Prisma: longest wait for a connection (ms). */
  maxWait?: number;
  /** Prisma: longest transaction (ms); Prisma's default is 5000. */
  timeout?: number;
}

/** Something that runs a callback in a transaction, Prisma-style: `prisma.$transaction(async (tx) => ...)`. */
export interface TransactionRunner<TTx extends SqlExecutor = SqlExecutor> {
  $transaction<R>(fn: (tx: TTx) => Promise<R>, options?: TransactionOptions): PromiseLike<R>;
}

export type TransactionalSqlExecutor<TTx extends SqlExecutor = SqlExecutor> = SqlExecutor &
  TransactionRunner<TTx>;

// --- pg adapter (structural types, so this package does not depend on pg) ---

interface PgResult {
  rows: unknown[];
  rowCount: number | null;
}
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<PgResult>;
}
export interface PgPoolClientLike extends PgQueryable {
  release(err?: Error | boolean): void;
}
export interface PgPoolLike extends PgQueryable {
  connect(): Promise<PgPoolClientLike>;
  totalCount: number;
}

/** A pg-backed executor; `$transaction` checks a client out of a pool (or uses the given client). */
export type PgExecutor = TransactionalSqlExecutor<SqlExecutor>;

function executorOn(q: PgQueryable): SqlExecutor {
  return {
    async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
      const res = await q.query(query, values);
      return res.rowCount ?? 0;
    },
    async $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
      const res = await q.query(query, values);
      return res.rows as T;
    },
  };
}

function isPool(db: PgQueryable): db is PgPoolLike {
  return (
    typeof (db as Partial<PgPoolLike>).totalCount === 'number' &&
    typeof (db as PgPoolLike).connect === 'function'
  );
}

async function inTransaction<R>(
  client: PgQueryable,
  fn: (tx: SqlExecutor) => Promise<R>,
  onBroken: () => void = () => undefined,
): Promise<R> {
  await client.query('BEGIN');
  try {
    const result = await fn(executorOn(client));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(onBroken);
    throw err;
  }
}

/**
 * Adapts a pg Pool or Client (or PoolClient) to `SqlExecutor` + `$transaction`.
 * With a Pool each transaction runs on its own checked-out client; with a Client, transactions run on that
 * client (one at a time: do not share a single Client between concurrent transactions).
 */
export function pgExecutor(db: PgQueryable): PgExecutor {
  const base = executorOn(db);
  return {
    ...base,
    async $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
      if (!isPool(db)) return inTransaction(db, fn);
      const client = await db.connect();
      let broken = false;
      try {
        return await inTransaction(client, fn, () => {
          broken = true;
        });
      } finally {
        // A client whose ROLLBACK failed is in an unknown state: destroy it instead of pooling it.
        client.release(broken);
      }
    },
  };
}

// --- identifiers and DDL ---

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Quotes a schema/table identifier after checking it is a plain name (no injection through config). */
export function quoteIdent(name: string): string {
  if (!IDENT.test(name)) throw new Error(`Invalid SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

export interface OutboxInboxSqlOptions {
  /** Prefix with `CREATE SCHEMA IF NOT EXISTS` (default true). */
  createSchema?: boolean;
  /** Also the idempotency-key table (services that accept Idempotency-Key: booking, billing). */
  idempotency?: boolean;
  /** Use IF NOT EXISTS so the script can run twice (default true). */
  ifNotExists?: boolean;
}

/**
 * The outbox and inbox tables for one service schema, as the statements Prisma generates for the
 * `OutboxEvent` / `InboxEvent` models (same types, defaults, constraint and index names), so a migration
 * built from this and one diffed from the Prisma schema agree.
 */
export function outboxInboxStatements(schema: string, options: OutboxInboxSqlOptions = {}): string[] {
  const s = quoteIdent(schema);
  const ine = options.ifNotExists === false ? '' : 'IF NOT EXISTS ';
  const statements: string[] = [];
  if (options.createSchema !== false) statements.push(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  statements.push(
    `CREATE TABLE ${ine}${s}."outbox_events" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "trace_context" JSONB,
    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
)`,
    `CREATE INDEX ${ine}"outbox_events_published_at_available_at_idx" ON ${s}."outbox_events"("published_at", "available_at")`,
    `CREATE TABLE ${ine}${s}."inbox_events" (
    "event_id" UUID NOT NULL,
    "handler" TEXT NOT NULL,
    "handled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("event_id","handler")
)`,
    // The maintenance purge deletes by age on every replica; without this it scans the whole inbox each time.
    `CREATE INDEX ${ine}"inbox_events_handled_at_idx" ON ${s}."inbox_events"("handled_at")`,
  );
  if (options.idempotency)
    statements.push(
      `CREATE TABLE ${ine}${s}."idempotency_keys" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope","key")
)`,
      `CREATE INDEX ${ine}"idempotency_keys_created_at_idx" ON ${s}."idempotency_keys"("created_at")`,
    );
  return statements;
}

/**
 * The Prisma models of the outbox, inbox and (optionally) idempotency tables for one service schema: the one source
 * every service's schema.prisma must contain word for word (checked by test/unit/shared-tables.test.ts), matching
 * the DDL of `outboxInboxStatements`.
 */
export function sharedTableModels(schema: string, options: { idempotency?: boolean } = {}): string {
  quoteIdent(schema);
  const models = [
    `/// Transactional outbox: events written with the change, published by the relay (packages/events).
model OutboxEvent {
  id           String    @id @db.Uuid
  type         String
  payload      Json
  createdAt    DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)
  availableAt  DateTime  @default(now()) @map("available_at") @db.Timestamptz(3)
  publishedAt  DateTime? @map("published_at") @db.Timestamptz(3)
  attempts     Int       @default(0)
  lastError    String?   @map("last_error")
  /// W3C trace context of the span that wrote the row; the relay's publish span continues it (packages/telemetry).
  traceContext Json?     @map("trace_context")

  @@index([publishedAt, availableAt])
  @@map("outbox_events")
  @@schema("${schema}")
}`,
    `model InboxEvent {
  eventId   String   @map("event_id") @db.Uuid
  handler   String
  handledAt DateTime @default(now()) @map("handled_at") @db.Timestamptz(3)

  @@id([eventId, handler])
  @@index([handledAt])
  @@map("inbox_events")
  @@schema("${schema}")
}`,
  ];
  if (options.idempotency)
    models.push(`model IdempotencyKey {
  scope       String
  key         String
  requestHash String   @map("request_hash")
  statusCode  Int      @map("status_code")
  response    Json
  createdAt   DateTime @default(now()) @map("created_at") @db.Timestamptz(3)

  @@id([scope, key])
  @@index([createdAt])
  @@map("idempotency_keys")
  @@schema("${schema}")
}`);
  return models.join('\n\n');
}

/** `outboxInboxStatements` joined into one script (for a migration.sql or a multi-statement pg query). */
export function outboxInboxSql(schema: string, options?: OutboxInboxSqlOptions): string {
  return `${outboxInboxStatements(schema, options).join(';\n\n')};\n`;
}
