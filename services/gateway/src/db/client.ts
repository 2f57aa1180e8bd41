import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export const DB_SCHEMA = 'identity';

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: 10 }, { schema: DB_SCHEMA }),
  });
}
