import { Pool } from 'pg';
import pino from 'pino';
import { noopLogger, outboxInboxSql, pgExecutor, type Logger, type PgExecutor } from '@tyres/events';
import { createTestDatabase, type TestDatabase } from '@tyres/testkit';

/** Silent unless TEST_LOG_LEVEL is set (e.g. TEST_LOG_LEVEL=debug npx jest ...). */
export function testLogger(): Logger {
  const level = process.env.TEST_LOG_LEVEL;
  return level ? pino({ level }) : noopLogger;
}

export interface PgFixture {
  database: TestDatabase;
  pool: Pool;
  db: PgExecutor;
  schema: string;
  close(): Promise<void>;
}

/** A fresh database with the outbox/inbox tables in `schema` (plus `extraSql`). */
export async function setupPg(label: string, schema = 'svc', extraSql = ''): Promise<PgFixture> {
  const database = await createTestDatabase(label);
  const pool = new Pool({ connectionString: database.url, max: 10 });
  pool.on('error', () => undefined);
  await pool.query(outboxInboxSql(schema));
  if (extraSql) await pool.query(extraSql);
  return {
    database,
    pool,
    db: pgExecutor(pool),
    schema,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Counts occurrences, e.g. of received event ids. */
export function counter(): {
  add(key: string): void;
  count(key: string): number;
  readonly total: number;
  keys(): string[];
} {
  const map = new Map<string, number>();
  let total = 0;
  return {
    add(key) {
      map.set(key, (map.get(key) ?? 0) + 1);
      total += 1;
    },
    count: (key) => map.get(key) ?? 0,
    get total() {
      return total;
    },
    keys: () => [...map.keys()],
  };
}
