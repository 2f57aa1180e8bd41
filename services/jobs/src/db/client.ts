import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/client';

export const DB_SCHEMA = 'jobs';
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export const createDb = (databaseUrl: string, max = 10): Db =>
  new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max }, { schema: DB_SCHEMA }) });
