// scripts/db-migrate.mjs over two fixture services sharing one database: each keeps its own _prisma_migrations.
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { databaseNames, databaseUrl, dbMigrate, dropDatabase, query, tempDir, writeSchema } from './helpers';

const gatewayModels = `model User {
  id       String @id @default(uuid()) @db.Uuid
  username String @unique

  @@map("users")
  @@schema("identity")
}
`;

const bookingModels = `model Booking {
  id     String @id @default(uuid()) @db.Uuid
  slotId String @map("slot_id")
  status String @default("pending")

  @@map("bookings")
  @@schema("booking")
}

/// Same model name and table name as the gateway's: schemas keep them apart.
model User {
  id String @id @db.Uuid

  @@map("users")
  @@schema("booking")
}
`;

// Each step spawns a Node process and a Wasm engine; the integration project's testTimeout is not applied per
// project by jest, so set it here.
jest.setTimeout(120_000);

describe('scripts/db-migrate.mjs', () => {
  const dbName = `pt_dbm_${process.pid}_${Date.now().toString(36)}`;
  const url = databaseUrl(dbName);
  // Roles are cluster-wide: this suite's own, dropped afterwards (database-roles.int.test.ts covers them).
  const rolePrefix = `${dbName}_`;
  let tmp: ReturnType<typeof tempDir>;
  let env: NodeJS.ProcessEnv;
  const migrationsOf = (service: string) =>
    readdirSync(path.join(tmp.dir, service, 'prisma', 'migrations'))
      .filter((n) => n !== 'migration_lock.toml')
      .sort();

  beforeAll(() => {
    tmp = tempDir('dbm');
    writeSchema(path.join(tmp.dir, 'gateway', 'prisma'), 'identity', gatewayModels);
    writeSchema(path.join(tmp.dir, 'booking', 'prisma'), 'booking', bookingModels);
    env = { DATABASE_URL: url, DB_MIGRATE_SERVICES_DIR: tmp.dir, DATABASE_ROLE_PREFIX: rolePrefix };
  });

  afterAll(async () => {
    await dropDatabase(dbName);
    const roles = ['gateway', 'booking'].flatMap((s) => [`${rolePrefix}${s}_owner`, `${rolePrefix}${s}_app`]);
    await query(databaseUrl('postgres'), roles.map((r) => `DROP ROLE IF EXISTS "${r}";`).join(' '));
    tmp?.cleanup();
  });

  it('create writes a migration per service (creating the database if missing)', async () => {
    const gateway = await dbMigrate(['create', 'gateway', 'init'], env);
    expect(gateway.stderr).toBe('');
    expect(gateway.code).toBe(0);
    expect(gateway.stdout).toMatch(/✔ gateway \(identity\): wrote .*_init\/migration\.sql/);
    const booking = await dbMigrate(['create', 'booking', 'init'], env);
    expect(booking.code).toBe(0);
    expect(migrationsOf('gateway')).toHaveLength(1);
    expect(migrationsOf('booking')).toHaveLength(1);
    expect(await databaseNames(dbName)).toEqual([dbName]);
  });

  it('deploy applies every service in order; each schema has its own _prisma_migrations', async () => {
    const result = await dbMigrate(['deploy'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    // `create` made the two schemas as the administrator (the engine creates its schema when it connects).
    expect(lines[0]).toBe(
      `✔ database roles of gateway, booking (prefix ${rolePrefix}): created ${rolePrefix}gateway_owner, ` +
        `${rolePrefix}gateway_app, ${rolePrefix}booking_owner, ${rolePrefix}booking_app; ` +
        "handed 2 object(s) to their schema's owner",
    );
    expect(lines[1]).toMatch(/^✔ gateway \(identity\): applied 1 of 1: \d{14}_init$/);
    expect(lines[2]).toMatch(/^✔ booking \(booking\): applied 1 of 1: \d{14}_init$/);

    const recorded = await query<{ schema: string; name: string }>(
      url,
      `SELECT 'identity' AS schema, migration_name AS name FROM identity._prisma_migrations
       UNION ALL SELECT 'booking', migration_name FROM booking._prisma_migrations ORDER BY 1`,
    );
    expect(recorded).toEqual([
      { schema: 'booking', name: migrationsOf('booking')[0] },
      { schema: 'identity', name: migrationsOf('gateway')[0] },
    ]);
    expect(
      await query(
        url,
        `SELECT 1 FROM pg_tables WHERE tablename = '_prisma_migrations' AND schemaname NOT IN ('identity', 'booking')`,
      ),
    ).toEqual([]);
    const tables = await query<{ t: string }>(
      url,
      `SELECT schemaname || '.' || tablename AS t FROM pg_tables WHERE schemaname IN ('identity', 'booking', 'public') ORDER BY 1`,
    );
    expect(tables.map((r) => r.t)).toEqual([
      'booking._prisma_migrations',
      'booking.bookings',
      'booking.users',
      'identity._prisma_migrations',
      'identity.users',
    ]);
  });

  it('a new booking migration is pending only for booking, and deploy applies only that', async () => {
    writeSchema(
      path.join(tmp.dir, 'booking', 'prisma'),
      'booking',
      bookingModels.replace(
        'status String @default("pending")',
        'status String @default("pending")\n  notes  String?',
      ),
    );
    expect((await dbMigrate(['create', 'booking', 'add notes'], env)).code).toBe(0);

    const status = await dbMigrate(['status'], env);
    expect(status.code).toBe(2); // something pending
    expect(status.stdout).toMatch(/gateway \(identity\): 1 applied\n/);
    expect(status.stdout).toMatch(/booking \(booking\): 1 applied, 1 pending\n/);

    const deploy = await dbMigrate(['deploy'], env);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toMatch(/✔ gateway \(identity\): up to date, 1 migration\(s\)/);
    expect(deploy.stdout).toMatch(/✔ booking \(booking\): applied 1 of 2: \d{14}_add_notes/);
    expect(await query(url, 'SELECT migration_name FROM identity._prisma_migrations')).toHaveLength(1);
    expect(await query(url, 'SELECT migration_name FROM booking._prisma_migrations')).toHaveLength(2);

    const again = await dbMigrate(['deploy', 'booking'], env);
    expect(again.stdout.trim()).toBe(
      `✔ database roles of booking (prefix ${rolePrefix}): up to date\n✔ booking (booking): up to date, 2 migration(s)`,
    );
  });

  it('names DATABASE_URL and how to start Postgres when it is unreachable', async () => {
    const result = await dbMigrate(['deploy'], {
      ...env,
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/tyres',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Cannot reach PostgreSQL at 127.0.0.1:1 (DATABASE_URL=postgresql://postgres@127.0.0.1:1/tyres)',
    );
    expect(result.stderr).toContain('docker compose up -d postgres');
  });

  it('rejects unknown services', async () => {
    const result = await dbMigrate(['deploy', 'nope'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Unknown service(s) nope. Services with a prisma/schema.prisma: gateway, booking',
    );
  });
});
