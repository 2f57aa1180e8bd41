import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client';

export const DB_SCHEMA = 'notify';
export type Db = PrismaClient;

/** The connection pool under each client (one pool: Prisma's adapter and the hot raw-SQL paths share it). */
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(databaseUrl: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // An idle connection Postgres ends (a restart, a dropped database) makes the pool emit 'error': without a
  // listener that crashes the process (Prisma's adapter only adds one once Prisma connects, and the raw paths may
  // use the pool first). The next query simply takes a fresh connection.
  pool.on('error', () => undefined);
  const db = new PrismaClient({
    // disposeExternalPool: $disconnect ends the pool, as it would end a pool the adapter made itself.
    adapter: new PrismaPg(pool, { schema: DB_SCHEMA, disposeExternalPool: true }),
  });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a client. The delivery log's per-message statements (the worker's claim and outcome, the row
 * written per request) run on the driver itself: Prisma's query path cost more CPU than the statements (as in jobs
 * and reporting).
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a client made by createDb');
  return pool;
}
