// The migration tool end to end against a real Postgres, through its CLI in a child process (the Wasm engine is
// loaded with a dynamic ESM import, which jest's CommonJS sandbox cannot run).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { databaseNames, query, tempDir, throwawayDatabase, tool, writeSchema } from './helpers';

const SCHEMA = 'identity';

const usersModel = (extraFields = '') => `enum Role {
  admin
  technician

  @@schema("identity")
}

model User {
  id        String    @id @default(uuid()) @db.Uuid
  email     String
  role      Role      @default(admin)
  deletedAt DateTime? @map("deleted_at") @db.Timestamptz(3)
${extraFields}
  @@map("users")
  @@schema("identity")
}
`;

interface CreateResult {
  created: boolean;
  migrationName?: string;
  file?: string;
  sql: string;
  message: string;
  warnings: string[];
}
interface DeployResult {
  applied: string[];
  total: number;
}
interface StatusResult {
  migrations: { name: string; state: string }[];
  pending: string[];
  upToDate: boolean;
}

// Each step spawns a Node process and a Wasm engine; the integration project's testTimeout is not applied per
// project by jest, so set it here.
jest.setTimeout(120_000);

describe('prisma-tools: create / deploy / status on one service schema', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let tmp: ReturnType<typeof tempDir>;
  let target: { databaseUrl: string; schemaPath: string; migrationsDir: string; schema: string };
  const prismaDir = () => path.dirname(target.schemaPath);
  const migrationFolders = () =>
    readdirSync(target.migrationsDir)
      .filter((n) => n !== 'migration_lock.toml')
      .sort();

  beforeAll(async () => {
    db = await throwawayDatabase('tool');
    tmp = tempDir('tool');
    const schemaPath = writeSchema(path.join(tmp.dir, 'prisma'), SCHEMA, usersModel());
    target = {
      databaseUrl: db.url,
      schemaPath,
      migrationsDir: path.join(path.dirname(schemaPath), 'migrations'),
      schema: SCHEMA,
    };
  });

  afterAll(async () => {
    await db?.drop();
    tmp?.cleanup();
  });

  it('create writes the first migration.sql (and migration_lock.toml) from the fixture schema', async () => {
    const result = await tool<CreateResult>('create', target, ['--name', 'Init']);
    expect(result.error).toBeUndefined();
    expect(result.created).toBe(true);
    expect(result.migrationName).toMatch(/^\d{14}_init$/);
    const sql = readFileSync(path.join(target.migrationsDir, result.migrationName!, 'migration.sql'), 'utf8');
    expect(sql).toContain(`CREATE TYPE "Role" AS ENUM ('admin', 'technician');`);
    expect(sql).toMatch(/CREATE TABLE "users" \(/);
    expect(readFileSync(path.join(target.migrationsDir, 'migration_lock.toml'), 'utf8')).toContain(
      'provider = "postgresql"',
    );
    // The shadow database used for the diff is gone.
    expect(await databaseNames('prisma_tools_shadow_')).toEqual([]);
  });

  it('create is a no-op with a clear message when schema.prisma did not change', async () => {
    const before = migrationFolders();
    const result = await tool<CreateResult>('create', target, ['--name', 'nothing']);
    expect(result.created).toBe(false);
    expect(result.message).toMatch(/no migration created/);
    expect(migrationFolders()).toEqual(before);
  });

  it('status lists the migration as pending before deploy', async () => {
    const result = await tool<StatusResult>('status', target);
    expect(result.pending).toEqual(migrationFolders());
    expect(result.upToDate).toBe(false);
  });

  it('deploy creates the schema, the tables in it, and records identity._prisma_migrations', async () => {
    const result = await tool<DeployResult>('deploy', target);
    expect(result.error).toBeUndefined();
    expect(result.applied).toEqual(migrationFolders());

    const tables = await query<{ table_schema: string; table_name: string }>(
      db.url,
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
    );
    expect(tables).toEqual([
      { table_schema: 'identity', table_name: '_prisma_migrations' },
      { table_schema: 'identity', table_name: 'users' },
    ]);
    const [init] = migrationFolders();
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished: boolean;
      applied_steps_count: number;
      rolled_back_at: null;
    }>(
      db.url,
      'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count, rolled_back_at FROM identity._prisma_migrations',
    );
    const file = readFileSync(path.join(target.migrationsDir, init!, 'migration.sql'));
    expect(rows).toEqual([
      {
        migration_name: init,
        checksum: createHash('sha256').update(file).digest('hex'),
        finished: true,
        applied_steps_count: 1,
        rolled_back_at: null,
      },
    ]);
  });

  it('deploy again is a no-op', async () => {
    const result = await tool<DeployResult>('deploy', target);
    expect(result.applied).toEqual([]);
    expect(result.total).toBe(1);
    const [{ count }] = (await query<{ count: string }>(
      db.url,
      'SELECT count(*) FROM identity._prisma_migrations',
    )) as [{ count: string }];
    expect(count).toBe('1');
  });

  it('after adding a column, create writes a second migration with only the ALTER', async () => {
    writeSchema(prismaDir(), SCHEMA, usersModel('  phone     String?'));
    const result = await tool<CreateResult>('create', target, ['--name', 'add phone']);
    expect(result.created).toBe(true);
    expect(result.migrationName).toMatch(/^\d{14}_add_phone$/);
    expect(migrationFolders()).toHaveLength(2);
    expect(migrationFolders()[1]).toBe(result.migrationName);
    const sql = readFileSync(result.file!, 'utf8');
    expect(sql.trim()).toBe('-- AlterTable\nALTER TABLE "users" ADD COLUMN     "phone" TEXT;');
  });

  it('a hand-written partial unique index appended to a migration is applied and survives the next create', async () => {
    const [, second] = migrationFolders();
    const file = path.join(target.migrationsDir, second!, 'migration.sql');
    appendFileSync(
      file,
      '\n-- Hand-written: one live account per email (Prisma cannot express partial unique indexes).\n' +
        'CREATE UNIQUE INDEX "users_email_live_key" ON "users" ("email") WHERE "deleted_at" IS NULL;\n',
    );
    expect((await tool<DeployResult>('deploy', target)).applied).toEqual([second]);

    // The index exists in the service schema and is enforced only for live rows.
    const insert = (email: string, deleted: boolean) =>
      query(
        db.url,
        `INSERT INTO identity.users (id, email, deleted_at) VALUES (gen_random_uuid(), $1, ${deleted ? 'now()' : 'NULL'})`,
        [email],
      );
    await insert('a@example.com', false);
    await insert('a@example.com', true);
    await expect(insert('a@example.com', false)).rejects.toThrow(/users_email_live_key/);

    // Nothing changed: create still sees no difference (the engine does not propose to drop the index) ...
    expect((await tool<CreateResult>('create', target, ['--name', 'still nothing'])).created).toBe(false);
    // ... and a real change produces only that change.
    writeSchema(prismaDir(), SCHEMA, usersModel('  phone     String?\n  nickname  String?'));
    const next = await tool<CreateResult>('create', target, ['--name', 'add nickname']);
    expect(next.created).toBe(true);
    expect(next.sql).not.toMatch(/DROP INDEX/i);
    expect(next.sql.trim()).toBe('-- AlterTable\nALTER TABLE "users" ADD COLUMN     "nickname" TEXT;');
    expect((await tool<DeployResult>('deploy', target)).applied).toEqual([next.migrationName]);
    const indexes = await query<{ indexname: string }>(
      db.url,
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'identity' AND tablename = 'users' ORDER BY 1`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['users_email_live_key', 'users_pkey']);
  });

  it('even when the engine would drop the partial index (partialIndexes preview on), create keeps it and warns', async () => {
    const generator = readFileSync(target.schemaPath, 'utf8')
      .split('datasource')[0]!
      .replace('runtime', 'previewFeatures     = ["partialIndexes"]\n  runtime');
    const original = readFileSync(target.schemaPath, 'utf8');
    writeSchema(prismaDir(), SCHEMA, usersModel('  phone     String?\n  nickname  String?'), generator);
    try {
      const result = await tool<CreateResult>('create', target, ['--name', 'preview']);
      expect(result.created).toBe(false);
      expect(result.warnings.join('\n')).toMatch(/Removed "DROP INDEX "users_email_live_key";"/);
    } finally {
      writeFileSync(target.schemaPath, original);
    }
  });

  it('deploy fails loudly when an applied migration was edited (checksum mismatch)', async () => {
    const [init] = migrationFolders();
    const file = path.join(target.migrationsDir, init!, 'migration.sql');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}\n-- sneaky edit\n`);
    try {
      const result = await tool('deploy', target);
      expect(result.exitCode).toBe(1);
      expect(result.error?.code).toBe('CHECKSUM_MISMATCH');
      expect(result.error?.message).toContain(init);
      const status = await tool<StatusResult>('status', target);
      expect(status.migrations.find((m) => m.name === init)?.state).toBe('modified');
    } finally {
      writeFileSync(file, original);
    }
  });

  it('a failing migration is recorded as failed, leaves nothing behind, and blocks deploys until resolved', async () => {
    const name = '29990101000000_broken';
    const dir = path.join(target.migrationsDir, name);
    const file = path.join(dir, 'migration.sql');
    mkdirSync(dir);
    writeFileSync(
      file,
      'CREATE TABLE "half" (id int);\n' +
        // A $$ body with semicolons: the whole script goes to Postgres in one piece.
        'CREATE FUNCTION one() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END; $$;\n' +
        'ALTER TABLE "missing" ADD COLUMN x int;\n',
    );
    const failed = await tool('deploy', target);
    expect(failed.error?.code).toBe('MIGRATION_FAILED');
    expect(failed.error?.message).toContain(name);
    // One implicit transaction: the statements before the failing one are not left applied.
    expect(
      await query(db.url, `SELECT 1 FROM pg_tables WHERE schemaname = 'identity' AND tablename = 'half'`),
    ).toEqual([]);

    const blocked = await tool('deploy', target);
    expect(blocked.error?.code).toBe('FAILED_MIGRATION');

    writeFileSync(
      file,
      'CREATE TABLE "half" (id int);\nCREATE FUNCTION one() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END; $$;\n',
    );
    expect((await tool('resolve', target, ['--rolled-back', name])).error).toBeUndefined();
    expect((await tool<DeployResult>('deploy', target)).applied).toEqual([name]);
    expect(await query(db.url, 'SELECT identity.one() AS one')).toEqual([{ one: 1 }]);
    expect((await tool<StatusResult>('status', target)).upToDate).toBe(true);
  });

  it('refuses a schema.prisma whose datasource schemas do not match the target schema', async () => {
    const result = await tool('deploy', { ...target, schema: 'booking' });
    expect(result.error?.code).toBe('INVALID_OPTIONS');
    expect(result.error?.message).toMatch(/declares schemas = \["identity"\]/);
  });

  it('reports an unreachable server clearly', async () => {
    const result = await tool('deploy', {
      ...target,
      databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere',
    });
    expect(result.error?.code).toBe('DB_UNREACHABLE');
    expect(result.error?.message).toMatch(
      /Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(DATABASE_URL=postgresql:\/\/postgres@127\.0\.0\.1:1\/nowhere\)/,
    );
    expect(existsSync(target.migrationsDir)).toBe(true);
  });
});
