import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { retryOnConnectionLoss } from '@tyres/service-kit';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'jobs';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** The client itself or a transaction: what a read that may run inside either takes. */
export type Executor = Pick<Db, '$queryRawUnsafe' | '$executeRawUnsafe'> | Tx;

/** The connection pool under each client (one pool: Prisma's adapter and the consumer's raw batches share it). */
const pools = new WeakMap<Db, pg.Pool>();

/** A statement whose pooled connection died (Postgres restarted) is run once more on a fresh one. */
export function createDb(databaseUrl: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // An idle connection Postgres ends (a restart, a dropped database) makes the pool emit 'error': without a
  // listener that crashes the process. Prisma's adapter only adds one once Prisma connects, and the raw batches may
  // use the pool first; the next query simply takes a fresh connection.
  pool.on('error', () => undefined);
  const db = new PrismaClient({
    // disposeExternalPool: $disconnect ends the pool, as it would end a pool the adapter made itself.
    adapter: retryOnConnectionLoss(new PrismaPg(pool, { schema: DB_SCHEMA, disposeExternalPool: true })),
  });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a client: BookingCreated batches run their all-raw transaction on the driver itself
 * (src/events/handlers.ts), as reporting's consumer does; Prisma's raw-query path costs more CPU than the
 * statements.
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a client made by createDb');
  return pool;
}
