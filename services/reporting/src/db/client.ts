import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { retryOnConnectionLoss } from '@tyres/service-kit';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'reporting';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

/** The connection pool under each client (one pool: Prisma's adapter and the raw reads share it). */
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(databaseUrl: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection Postgres ends (a restart, a dropped database) makes the pool emit 'error': without a
  // listener that crashes the process. Prisma's adapter only adds one once Prisma connects, and the raw batches may
  // use the pool first; the next query simply takes a fresh connection.
  pool.on('error', () => undefined);
  const db = new PrismaClient({
    // disposeExternalPool: $disconnect ends the pool, as it would end a pool the adapter made itself. A statement
    // whose pooled connection died (Postgres restarted) is run once more on a fresh one.
    adapter: retryOnConnectionLoss(new PrismaPg(pool, { schema: DB_SCHEMA, disposeExternalPool: true })),
  });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a client, for the few reads whose results are too big for Prisma's raw-query path: the GST
 * report's pre-rendered lists run to tens of megabytes over a whole history, and `$queryRaw` takes several times
 * longer than the driver itself to hand a result that size over. The event handlers' transactions (inbox, event
 * store, projections: all raw SQL) run on it too (events/subscriptions.ts).
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a client made by createDb');
  return pool;
}
