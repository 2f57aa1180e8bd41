import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export const DB_SCHEMA = 'notify';
export type Db = PrismaClient;

export const createDb = (databaseUrl: string): Db =>
  new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: 10 }, { schema: DB_SCHEMA }),
  });
