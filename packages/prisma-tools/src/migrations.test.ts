import { connectionConfig, redactUrl } from './db';
import { cleanEngineMessage } from './engine';
import {
  declaredSchemas,
  destructiveStatements,
  extensionsCreated,
  handWrittenIndexes,
  isEmptyScript,
  keepHandWrittenIndexes,
  nextMigrationName,
  slugifyMigrationName,
} from './migrations';

describe('migration names', () => {
  it('slugifies like a folder name', () => {
    expect(slugifyMigrationName('Add phone to Users!')).toBe('add_phone_to_users');
    expect(slugifyMigrationName('  init ')).toBe('init');
    expect(() => slugifyMigrationName('---')).toThrow(/Invalid migration name/);
  });

  it('prefixes a UTC timestamp and never sorts before an existing migration', () => {
    const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(nextMigrationName('x', [], now)).toBe('20260102030405_x');
    expect(nextMigrationName('x', ['20260102030405_init'], now)).toBe('20260102030406_x');
    expect(nextMigrationName('x', ['20261231235959_future'], now)).toBe('20270101000000_x');
  });
});

describe('hand-written indexes', () => {
  const migrations = [
    {
      sql: `-- CreateTable
CREATE TABLE "users" ("id" TEXT NOT NULL, "email" TEXT NOT NULL, "deleted_at" TIMESTAMP(3));
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
-- hand-written
CREATE UNIQUE INDEX "users_email_live_key" ON "users" ("email") WHERE "deleted_at" IS NULL;
CREATE INDEX IF NOT EXISTS users_lower_email_idx ON identity.users (lower(email));
CREATE UNIQUE INDEX "slot_taken" ON "reservations" USING btree ("day", "slot") WHERE status <> 'cancelled';`,
    },
    { sql: 'DROP INDEX IF EXISTS "slot_taken";' },
  ];

  it('finds partial and expression indexes, minus those dropped later', () => {
    expect([...handWrittenIndexes(migrations)].sort()).toEqual([
      'users_email_live_key',
      'users_lower_email_idx',
    ]);
  });

  it('strips generated DROP INDEX statements for them only', () => {
    const generated = `-- DropIndex
DROP INDEX "users_email_live_key";

-- DropIndex
DROP INDEX "identity"."users_email_key";

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "phone" TEXT;
`;
    const { sql, removed } = keepHandWrittenIndexes(generated, handWrittenIndexes(migrations));
    expect(removed).toEqual(['DROP INDEX "users_email_live_key";']);
    expect(sql).toBe(`-- DropIndex
DROP INDEX "identity"."users_email_key";

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "phone" TEXT;
`);
  });
});

describe('script helpers', () => {
  it('recognises an empty script', () => {
    expect(isEmptyScript('-- This is an empty migration.\n')).toBe(true);
    expect(isEmptyScript('/* nothing */\n')).toBe(true);
    expect(isEmptyScript('SELECT 1;')).toBe(false);
  });

  it('flags destructive statements', () => {
    expect(
      destructiveStatements(
        'ALTER TABLE "a" DROP COLUMN "b";\nALTER TABLE "a" ADD COLUMN "c" TEXT;\nDROP TABLE "x";\nALTER TABLE "a" ALTER COLUMN "d" SET DATA TYPE INTEGER;',
      ),
    ).toEqual([
      'ALTER TABLE "a" DROP COLUMN "b"',
      'DROP TABLE "x"',
      'ALTER TABLE "a" ALTER COLUMN "d" SET DATA TYPE INTEGER',
    ]);
  });

  it('reads the datasource schemas', () => {
    const content =
      'generator client {\n  provider = "prisma-client"\n}\ndatasource db {\n  provider = "postgresql"\n  schemas  = ["identity"]\n}\n';
    expect(declaredSchemas([{ path: 'schema.prisma', content }])).toEqual(['identity']);
    expect(
      declaredSchemas([
        { path: 'schema.prisma', content: 'datasource db {\n  provider = "postgresql"\n}\n' },
      ]),
    ).toBeUndefined();
  });

  it('keeps the human part of engine errors', () => {
    expect(
      cleanEngineMessage(
        'external connector error\nNo such table: nope\n   0: sql_schema_connector::apply_migration::apply_script\n     at x.rs:1',
      ),
    ).toBe('No such table: nope');
  });
});

describe('connection settings', () => {
  it('sets search_path to the service schema, keeps user options, drops Prisma ?schema=', () => {
    const config = connectionConfig(
      'postgresql://u:p@db:5433/tyres?schema=public&options=-c%20statement_timeout%3D5000&sslmode=disable',
      'booking',
    );
    expect(config.options).toBe('-c statement_timeout=5000 -c search_path=booking');
    expect(config.connectionString).toBe('postgresql://u:p@db:5433/tyres?sslmode=disable');
  });

  it('runs the session as a role when asked (the schema owner), and refuses a role name that needs quoting', () => {
    expect(connectionConfig('postgresql://postgres@db/tyres', 'booking', 'booking_owner').options).toBe(
      '-c search_path=booking -c role=booking_owner',
    );
    expect(() => connectionConfig('postgresql://postgres@db/tyres', 'booking', 'x -c role=postgres')).toThrow(
      /Invalid Postgres role name/,
    );
  });

  it('redacts passwords', () => {
    expect(redactUrl('postgresql://u:secret@db/tyres')).toBe('postgresql://u:***@db/tyres');
  });
});

describe('extensions the migrations create', () => {
  it('finds CREATE EXTENSION with or without IF NOT EXISTS and quotes, once each, ignoring comments', () => {
    expect(
      extensionsCreated([
        {
          sql: '-- CREATE EXTENSION nope;\nCREATE EXTENSION IF NOT EXISTS "pg_trgm";\nCREATE TABLE "t" ("id" INT);',
        },
        {
          sql: '/* CREATE EXTENSION hidden; */ create extension btree_gist;\nCREATE EXTENSION IF NOT EXISTS pg_trgm;',
        },
        { sql: 'CREATE EXTENSION "uuid-ossp" SCHEMA "booking";' },
      ]),
    ).toEqual(['pg_trgm', 'btree_gist', 'uuid-ossp']);
    expect(extensionsCreated([{ sql: 'CREATE INDEX "x" ON "t" USING gin ("name" gin_trgm_ops);' }])).toEqual(
      [],
    );
  });
});
