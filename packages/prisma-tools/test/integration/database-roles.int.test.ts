// A database role per service (scripts/db-migrate.mjs deploy over the real services' migrations): the bootstrap
// hands an existing single-role database to the schema owners, migrations run as those owners, and each service's
// app role reaches its own tables only. Roles are cluster-wide, so this suite makes its own (DATABASE_ROLE_PREFIX)
// and drops them afterwards.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { Client } from 'pg';

import { scramVerifier } from '../../src/roles';
import { databaseUrl, dbMigrate, dropDatabase, query, REPO_ROOT, run, tempDir } from './helpers';

jest.setTimeout(180_000);

const SERVICES = {
  gateway: 'identity',
  booking: 'booking',
  jobs: 'jobs',
  billing: 'billing',
  reporting: 'reporting',
  notify: 'notify',
};
const PRISMA_TOOLS = path.join(REPO_ROOT, 'packages/prisma-tools/bin/prisma-tools.mjs');

const suffix = randomBytes(3).toString('hex');
const prefix = `pt${suffix}_`;
/** A service's migrations as the repo has them (the counts grow as the services do). */
const migrationsOf = (service: string) =>
  readdirSync(path.join(REPO_ROOT, `services/${service}/prisma/migrations`), { withFileTypes: true }).filter(
    (entry) => entry.isDirectory(),
  ).length;
const billingMigrations = migrationsOf('billing');
const bookingMigrations = migrationsOf('booking');
const dbName = `pt_roles_${process.pid}_${suffix}`;
const adminUrl = databaseUrl(dbName);
const passwords = Object.fromEntries(Object.keys(SERVICES).map((s) => [s, randomBytes(16).toString('hex')]));

/** The service's own DATABASE_URL, as the stack and the Secrets write it: <prefix><service>_app on the same database. */
function appUrl(service: keyof typeof SERVICES): string {
  const url = new URL(adminUrl);
  url.username = `${prefix}${service}_app`;
  url.password = passwords[service]!;
  return url.toString();
}

const serviceUrls = Object.fromEntries(
  Object.keys(SERVICES).map((s) => [`${s.toUpperCase()}_DATABASE_URL`, appUrl(s as keyof typeof SERVICES)]),
);

/** Runs statements on one connection; returns 'ok' or the SQLSTATE of the first failure. */
async function attempt(url: string, ...statements: string[]): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end();
  }
}

describe('a database role per service', () => {
  let tmp: ReturnType<typeof tempDir>;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    // A copy of every service's prisma folder, so the suite can add a migration without touching the repo.
    tmp = tempDir('roles');
    for (const service of Object.keys(SERVICES)) {
      const from = path.join(REPO_ROOT, 'services', service, 'prisma');
      const to = path.join(tmp.dir, service, 'prisma');
      mkdirSync(to, { recursive: true });
      cpSync(path.join(from, 'schema.prisma'), path.join(to, 'schema.prisma'));
      cpSync(path.join(from, 'migrations'), path.join(to, 'migrations'), { recursive: true });
    }
    env = {
      DATABASE_URL: adminUrl,
      DB_MIGRATE_SERVICES_DIR: tmp.dir,
      DATABASE_ROLE_PREFIX: prefix,
      ...serviceUrls,
    };
  });

  afterAll(async () => {
    await dropDatabase(dbName);
    // The database took its objects, grants and default privileges with it; only the roles are left.
    const roles = Object.keys(SERVICES).flatMap((s) => [`${prefix}${s}_owner`, `${prefix}${s}_app`]);
    await query(databaseUrl('postgres'), roles.map((r) => `DROP ROLE IF EXISTS "${r}";`).join(' '));
    tmp?.cleanup();
  });

  it('an existing single-role database (everything owned by the administrator) is handed to the owner roles', async () => {
    await query(databaseUrl('postgres'), `CREATE DATABASE "${dbName}"`);
    // What the previous db-migrate did: every migration as the administrator.
    for (const service of ['booking', 'jobs'] as const) {
      const dir = path.join(tmp.dir, service, 'prisma');
      const result = await run(PRISMA_TOOLS, [
        'deploy',
        '--json',
        '--database-url',
        adminUrl,
        '--schema-path',
        path.join(dir, 'schema.prisma'),
        '--migrations-dir',
        path.join(dir, 'migrations'),
        '--schema',
        SERVICES[service],
      ]);
      expect(result.code).toBe(0);
    }
    await query(
      adminUrl,
      `INSERT INTO booking.inbox_events (event_id, handler) VALUES (gen_random_uuid(), 'before')`,
    );

    const deploy = await dbMigrate(['deploy'], env);
    expect(deploy.stderr).toBe('');
    expect(deploy.code).toBe(0);
    const [roles, ...services] = deploy.stdout.trim().split('\n');
    expect(roles).toMatch(
      new RegExp(
        `^✔ database roles of gateway, booking, jobs, billing, reporting, notify \\(prefix ${prefix}\\): created ${prefix}gateway_owner, ${prefix}gateway_app, ${prefix}booking_owner, `,
      ),
    );
    expect(roles).toMatch(/handed \d+ object\(s\) to their schema's owner; installed pg_trgm \(billing\)$/);
    expect(services[1]).toBe(`✔ booking (booking): up to date, ${bookingMigrations} migration(s)`);
    // Every billing migration there is (the count grows as billing does).
    expect(services[3]).toMatch(/^✔ billing \(billing\): applied (\d+) of \1: /);

    // Every schema, table, sequence, view, type and function of ours belongs to its service's owner role.
    const owners = await query<{ schema: string; owner: string }>(
      adminUrl,
      `SELECT n.nspname AS schema, pg_get_userbyid(c.relowner) AS owner FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1)
       UNION SELECT n.nspname, pg_get_userbyid(n.nspowner) FROM pg_namespace n WHERE n.nspname = ANY($1)
       UNION SELECT n.nspname, pg_get_userbyid(t.typowner) FROM pg_type t
         JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = ANY($1) AND t.typtype = 'e'
       UNION SELECT n.nspname, pg_get_userbyid(p.proowner) FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ANY($1)
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
       ORDER BY 1, 2`,
      [Object.values(SERVICES)],
    );
    expect(owners).toEqual(
      Object.entries(SERVICES)
        .map(([service, schema]) => ({ schema, owner: `${prefix}${service}_owner` }))
        .sort((a, b) => a.schema.localeCompare(b.schema)),
    );
    // Owners never log in; app roles do, and nothing more.
    const attributes = await query<{ rolname: string; rolcanlogin: boolean; powers: boolean }>(
      adminUrl,
      `SELECT rolname, rolcanlogin, rolsuper OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls AS powers
         FROM pg_roles WHERE starts_with(rolname, $1) ORDER BY rolname`,
      [prefix],
    );
    expect(attributes).toHaveLength(12);
    for (const role of attributes) {
      expect(role.powers).toBe(false);
      expect(role.rolcanlogin).toBe(role.rolname.endsWith('_app'));
    }
  });

  it("booking's role reads and writes its own tables, including what the single-role setup left there", async () => {
    const booking = appUrl('booking');
    expect(await query(booking, `SELECT handler FROM booking.inbox_events`)).toEqual([{ handler: 'before' }]);
    expect(
      await attempt(
        booking,
        'BEGIN',
        `INSERT INTO booking.inbox_events (event_id, handler) VALUES (gen_random_uuid(), 'app')`,
        `UPDATE booking.inbox_events SET handler = 'app2' WHERE handler = 'app'`,
        `DELETE FROM booking.inbox_events WHERE handler = 'app2'`,
        // What booking does beyond plain DML: the job number sequence, the slot lock, the outbox relay's claim,
        // and LISTEN for slot changes.
        `SELECT nextval(pg_get_serial_sequence('booking.bookings', 'job_seq'))`,
        `SELECT pg_advisory_xact_lock(hashtextextended('2026-01-01/morning', 0))`,
        `SELECT id FROM booking.outbox_events ORDER BY created_at LIMIT 10 FOR UPDATE SKIP LOCKED`,
        'COMMIT',
        'LISTEN booking_slots',
      ),
    ).toBe('ok');
  });

  it("booking's role cannot read jobs' tables, or any other service's (permission denied, 42501)", async () => {
    const booking = appUrl('booking');
    expect(await attempt(booking, 'SELECT 1 FROM jobs.jobs LIMIT 1')).toBe('42501');
    expect(await attempt(booking, 'SELECT 1 FROM identity.users LIMIT 1')).toBe('42501');
    expect(await attempt(booking, 'SELECT 1 FROM billing.customer_invoices LIMIT 1')).toBe('42501');
    expect(await attempt(booking, 'SELECT 1 FROM reporting.events LIMIT 1')).toBe('42501');
    // Nor the migration history of its own schema.
    expect(await attempt(booking, 'SELECT 1 FROM booking._prisma_migrations LIMIT 1')).toBe('42501');
    // And the other way round.
    expect(await attempt(appUrl('jobs'), 'SELECT 1 FROM jobs.jobs LIMIT 1')).toBe('ok');
    expect(await attempt(appUrl('jobs'), 'SELECT 1 FROM booking.bookings LIMIT 1')).toBe('42501');
  });

  it("booking's role has no DDL: not on its own schema, not in public, no schemas, no temporary tables", async () => {
    const booking = appUrl('booking');
    expect(await attempt(booking, 'CREATE TABLE booking.notes (id int)')).toBe('42501');
    expect(await attempt(booking, 'ALTER TABLE booking.bookings ADD COLUMN note text')).toBe('42501');
    expect(await attempt(booking, 'CREATE INDEX bookings_note ON booking.bookings (status)')).toBe('42501');
    expect(await attempt(booking, 'DROP TABLE booking.inbox_events')).toBe('42501');
    expect(await attempt(booking, 'TRUNCATE booking.inbox_events')).toBe('42501');
    expect(await attempt(booking, 'CREATE TABLE public.notes (id int)')).toBe('42501');
    expect(await attempt(booking, 'CREATE SCHEMA notes')).toBe('42501');
    expect(await attempt(booking, 'CREATE TEMPORARY TABLE notes (id int)')).toBe('42501');
    expect(await query(adminUrl, `SELECT to_regclass('booking.notes') AS t`)).toEqual([{ t: null }]);
  });

  it("each app role's password is the one in its service's DATABASE_URL (SCRAM, as Postgres computes it)", async () => {
    const rows = await query<{ rolname: string; rolpassword: string }>(
      adminUrl,
      `SELECT rolname, rolpassword FROM pg_authid WHERE starts_with(rolname, $1) AND rolcanlogin ORDER BY rolname`,
      [prefix],
    );
    expect(rows).toHaveLength(6);
    for (const { rolname, rolpassword } of rows) {
      const service = rolname.slice(prefix.length, -'_app'.length);
      const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(rolpassword)!;
      expect(scramVerifier(passwords[service]!, Buffer.from(salt!, 'base64'), Number(iterations))).toBe(
        rolpassword,
      );
    }
    // Our verifier is Postgres' own: let the server hash a password and compare.
    const probe = `${prefix}probe`;
    try {
      await query(
        adminUrl,
        `SET password_encryption = 'scram-sha-256'; CREATE ROLE "${probe}" PASSWORD 'Perth-6000'`,
      );
      const rows = await query<{ rolpassword: string }>(
        adminUrl,
        'SELECT rolpassword FROM pg_authid WHERE rolname = $1',
        [probe],
      );
      const rolpassword = rows[0]?.rolpassword;
      const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(rolpassword!)!;
      expect(scramVerifier('Perth-6000', Buffer.from(salt!, 'base64'), Number(iterations))).toBe(rolpassword);
    } finally {
      await query(adminUrl, `DROP ROLE IF EXISTS "${probe}"`);
    }
  });

  it('the owner role migrates its schema; later tables reach the app role through the default privileges', async () => {
    const migration = path.join(tmp.dir, 'booking', 'prisma', 'migrations', '29990101000000_loyalty_cards');
    mkdirSync(migration);
    writeFileSync(
      path.join(migration, 'migration.sql'),
      'CREATE TABLE "loyalty_cards" ("id" SERIAL PRIMARY KEY, "customer" TEXT NOT NULL);\n',
    );
    const deploy = await dbMigrate(['deploy', 'booking'], env);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toContain(
      `✔ booking (booking): applied 1 of ${bookingMigrations + 1}: 29990101000000_loyalty_cards`,
    );
    expect(
      await query(
        adminUrl,
        `SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'booking.loyalty_cards'::regclass`,
      ),
    ).toEqual([{ owner: `${prefix}booking_owner` }]);
    const booking = appUrl('booking');
    expect(await attempt(booking, `INSERT INTO booking.loyalty_cards (customer) VALUES ('Dana')`)).toBe('ok');
    expect(await query(booking, 'SELECT id, customer FROM booking.loyalty_cards')).toEqual([
      { id: 1, customer: 'Dana' },
    ]);
    expect(await attempt(appUrl('jobs'), 'SELECT 1 FROM booking.loyalty_cards')).toBe('42501');
    // The new migration's history row is still out of the app role's reach.
    expect(await attempt(booking, 'SELECT 1 FROM booking._prisma_migrations LIMIT 1')).toBe('42501');
  });

  it("a service's migration cannot reach into another service's schema", async () => {
    const migration = path.join(tmp.dir, 'booking', 'prisma', 'migrations', '29990102000000_reach_into_jobs');
    mkdirSync(migration);
    writeFileSync(path.join(migration, 'migration.sql'), 'CREATE TABLE "jobs"."booking_notes" ("id" INT);\n');
    const deploy = await dbMigrate(['deploy', 'booking'], env);
    expect(deploy.code).toBe(1);
    expect(deploy.stderr).toMatch(
      /migration 29990102000000_reach_into_jobs failed.*permission denied for schema jobs/s,
    );
    expect(await query(adminUrl, `SELECT to_regclass('jobs.booking_notes') AS t`)).toEqual([{ t: null }]);
  });

  it('a second deploy changes nothing', async () => {
    const deploy = await dbMigrate(['deploy', 'gateway', 'jobs', 'billing'], env);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout.trim().split('\n')).toEqual([
      `✔ database roles of gateway, jobs, billing (prefix ${prefix}): up to date`,
      `✔ gateway (identity): up to date, ${migrationsOf('gateway')} migration(s)`,
      `✔ jobs (jobs): up to date, ${migrationsOf('jobs')} migration(s)`,
      `✔ billing (billing): up to date, ${billingMigrations} migration(s)`,
    ]);
  });

  it("in production every deployed service's URL is required, and must name its own role", async () => {
    const missing = await dbMigrate(['deploy', 'booking', 'jobs'], {
      ...env,
      NODE_ENV: 'production',
      BOOKING_DATABASE_URL: '',
      JOBS_DATABASE_URL: '',
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Missing BOOKING_DATABASE_URL, JOBS_DATABASE_URL (with a password)');
    const wrongUser = await dbMigrate(['deploy', 'booking'], {
      ...env,
      NODE_ENV: 'production',
      BOOKING_DATABASE_URL: appUrl('jobs'),
    });
    expect(wrongUser.code).toBe(1);
    expect(wrongUser.stderr).toContain(
      `BOOKING_DATABASE_URL connects as "${prefix}jobs_app"; the booking service's role is "${prefix}booking_app".`,
    );
  });
});
