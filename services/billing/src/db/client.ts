import { PrismaPg } from '@prisma/adapter-pg';
import { retryOnConnectionLoss } from '@tyres/service-kit';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'billing';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

/** A statement whose pooled connection died (Postgres restart) runs once more on a fresh one (service-kit). */
export const createDb = (databaseUrl: string, poolSize = 10): Db =>
  new PrismaClient({
    adapter: retryOnConnectionLoss(
      new PrismaPg({ connectionString: databaseUrl, max: poolSize }, { schema: DB_SCHEMA }),
    ),
  });

/** Interactive transactions here may queue behind the invoice-number row lock: allow for it. */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;
