import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'reporting';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export const createDb = (databaseUrl: string, poolSize = 10): Db =>
  new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }, { schema: DB_SCHEMA }),
  });

/** Handler transactions: an aggregate's lock may be held by a concurrent handler of the same aggregate. */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;
