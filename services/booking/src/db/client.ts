import { PrismaPg } from '@prisma/adapter-pg';
import { pgExecutor, type PgExecutor, type SqlExecutor } from '@tyres/events';
import { retryOnConnectionLoss } from '@tyres/service-kit';
import { Prisma, PrismaClient } from './generated/client';

export const DB_SCHEMA = 'booking';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** What the raw-SQL helpers need: a Prisma client or transaction, or the pg executor below. */
export type Sql = SqlExecutor;
export { Prisma };

/**
 * One Postgres pool, two ways in:
 *  - `prisma`: the Prisma client (typed models) for everything that is not hot;
 *  - `sql`: the same pool through the plain driver (`pgExecutor` from @tyres/events) for the hot paths: slot
 *    lists, the booking transaction, the internal reservation calls and the runtime's outbox relay. Measured on
 *    the CI machine, a Prisma interactive transaction of 11 statements ran 61/s against 369/s on the driver
 *    (README, "Performance").
 * The pool is created by Prisma's own adapter (so no extra dependency) and ended by prisma.$disconnect().
 */
export interface Database {
  prisma: Db;
  sql: PgExecutor;
  /** A named (server-side prepared) statement on the pool, for the hottest reads. */
  prepared: Prepared;
  /** A transaction that starts holding an advisory lock (BEGIN and the lock in one round trip). */
  lockedTransaction: LockedTransaction;
  /** LISTEN on a channel over a dedicated connection that reconnects by itself. */
  listen(channel: string, handlers: ListenHandlers): Listener;
  $disconnect(): Promise<void>;
}

export type Prepared = <T>(name: string, text: string, values: unknown[]) => Promise<T[]>;
export type LockedTransaction = <R>(lockKey: string, fn: (tx: SqlExecutor) => Promise<R>) => Promise<R>;

export interface ListenHandlers {
  onNotify(payload: string): void;
  /** true once listening; false whenever the connection is lost (notifications may have been missed). */
  onState(listening: boolean): void;
  onError?(err: Error): void;
}
export interface Listener {
  close(): Promise<void>;
}

interface NotifyingClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', fn: (err?: Error) => void): unknown;
  removeAllListeners(): unknown;
}

/** A SQL string literal (standard_conforming_strings is on in every supported Postgres). */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

export async function createDatabase(databaseUrl: string, poolSize = 10): Promise<Database> {
  const pool = (
    await new PrismaPg({
      connectionString: databaseUrl,
      max: poolSize,
      // Fail rather than hang: a connection within 10 s, no lock waited on for more than 10 s.
      connectionTimeoutMillis: 10_000,
      options: '-c lock_timeout=10000',
    }).connect()
  ).underlyingDriver();
  // A Prisma statement whose pooled connection died (Postgres restarted) runs once more on a fresh one (issue 14).
  const prisma = new PrismaClient({
    adapter: retryOnConnectionLoss(new PrismaPg(pool, { schema: DB_SCHEMA, disposeExternalPool: true })),
  });
  const prepared: Prepared = async <T>(name: string, text: string, values: unknown[]) =>
    (await pool.query({ name, text, values })).rows as T[];
  const lockedTransaction: LockedTransaction = async (lockKey, fn) => {
    const client = await pool.connect();
    let broken = false;
    try {
      // Simple-protocol multi-statement query: no parameters, hence the literal.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${literal(lockKey)}, 0))`);
      try {
        const result = await fn(pgExecutor(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      }
    } finally {
      client.release(broken);
    }
  };
  // The pool's own Client class: a connection outside the pool, for LISTEN (which holds it forever).
  const ClientClass = (pool as unknown as { Client: new (config: object) => NotifyingClient }).Client;
  const listen = (channel: string, handlers: ListenHandlers): Listener => {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel ${channel}`);
    let client: NotifyingClient | undefined;
    let closed = false;
    let retryMs = 500;
    let timer: NodeJS.Timeout | undefined;
    const lost = (err?: Error) => {
      handlers.onState(false);
      if (err) handlers.onError?.(err);
      client?.removeAllListeners();
      client?.end().catch(() => undefined);
      client = undefined;
      if (!closed) {
        timer = setTimeout(connect, retryMs);
        timer.unref();
        retryMs = Math.min(retryMs * 2, 30_000);
      }
    };
    const connect = async () => {
      if (closed) return;
      const c = new ClientClass({ connectionString: databaseUrl, keepAlive: true });
      client = c;
      c.on('notification', (msg) => {
        if (msg.channel === channel && msg.payload) handlers.onNotify(msg.payload);
      });
      c.on('error', (err) => lost(err));
      c.on('end', () => {
        if (client === c) lost();
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${channel}`);
        retryMs = 500;
        handlers.onState(true);
      } catch (err) {
        if (client === c) lost(err as Error);
      }
    };
    void connect();
    return {
      async close() {
        closed = true;
        if (timer) clearTimeout(timer);
        handlers.onState(false);
        const c = client;
        client = undefined;
        c?.removeAllListeners();
        await c?.end().catch(() => undefined);
      },
    };
  };
  return {
    prisma,
    sql: pgExecutor(pool),
    prepared,
    lockedTransaction,
    listen,
    $disconnect: () => prisma.$disconnect(),
  };
}
