import { PrismaPg } from '@prisma/adapter-pg';
import { retryOnConnectionLoss } from '@tyres/service-kit';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'jobs';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** The client itself or a transaction: what a read that may run inside either takes. */
export type Executor = Pick<Db, '$queryRawUnsafe' | '$executeRawUnsafe'> | Tx;

/** A statement whose pooled connection died (Postgres restarted) is run once more on a fresh one. */
export const createDb = (databaseUrl: string, max = 10): Db =>
  new PrismaClient({
    adapter: retryOnConnectionLoss(
      new PrismaPg({ connectionString: databaseUrl, max }, { schema: DB_SCHEMA }),
    ),
  });
