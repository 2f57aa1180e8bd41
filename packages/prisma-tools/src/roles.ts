/**
 * One pair of Postgres roles per service schema (docs/migrations.md, "Database roles"):
 *
 * - `owner` (NOLOGIN) owns the schema and everything in it. Migrations run as it (`role` of deploy: the migrator
 *   logs in as the administrator and sets this role), so it is the only role with DDL on the schema.
 * - `app` (LOGIN) is what the service connects as: USAGE on its schema, SELECT/INSERT/UPDATE/DELETE on its tables,
 *   USAGE/SELECT on its sequences, EXECUTE on its functions; nothing on any other schema, no CREATE anywhere, no
 *   TEMPORARY, not even CONNECT to another database of the cluster unless granted there.
 *
 * bootstrapRoles runs with the administrator's DATABASE_URL (a superuser, or a role with CREATEROLE that owns the
 * database) and is idempotent: it creates or corrects the roles, sets the app role's password when given, hands
 * every object of the schema to its owner (a database built by the old single-role setup has them owned by the
 * administrator), installs the extensions the migrations create, and (re)applies the grants and default
 * privileges. Safe to run on every start, and concurrently.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

import type pg from 'pg';

import { assertRoleName, assertSchemaName, quoteIdent, withClient } from './db';
import { type Logger, silentLogger } from './engine';
import { PrismaToolsError } from './errors';
import { extensionsCreated, readMigrations } from './migrations';

export interface ServiceRoles {
  /** The Postgres schema the service owns. */
  schema: string;
  /** NOLOGIN role that owns the schema and everything in it; migrations run as it. */
  owner: string;
  /** LOGIN role the service connects as. */
  app: string;
  /**
   * The app role's password. When absent an existing role keeps its password and a new one gets none (it can then
   * log in only where pg_hba.conf trusts the connection).
   */
  appPassword?: string;
  /** The service's migrations folder: the extensions its migrations create are installed beforehand. */
  migrationsDir?: string;
}

export interface BootstrapRolesOptions {
  /** The administrator's postgresql:// URL, naming the service database (which must exist). */
  databaseUrl: string;
  services: ServiceRoles[];
  logger?: Logger;
}

export interface BootstrapResult {
  /** Roles created by this call. */
  created: string[];
  /** App roles whose password this call set (new roles, or a password that differed from the stored one). */
  passwordsSet: string[];
  /** Roles whose attributes were corrected (e.g. LOGIN on an owner, CREATEDB on an app role). */
  corrected: string[];
  /** Objects handed to their schema's owner (`schema booking`, `table booking.bookings`, ...). */
  reassigned: string[];
  /** Extensions installed by this call, as `name (schema)`. */
  extensions: string[];
}

/** SQLSTATEs (and one internal error) of two bootstraps racing on the same roles or catalog rows: retried. */
function isRace(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e.code === '40001' || // serialization_failure
    e.code === '40P01' || // deadlock_detected
    e.code === '42710' || // duplicate_object: the role was created by another bootstrap meanwhile
    e.code === '23505' || // unique_violation on pg_authid / pg_namespace / pg_default_acl
    (e.code === 'XX000' && /tuple concurrently (updated|deleted)/.test(e.message ?? ''))
  );
}

const SCRAM_ITERATIONS = 4096;

/**
 * The SCRAM-SHA-256 verifier Postgres stores for a password (RFC 5803 format, as `\password` and pg's own
 * `password_encryption = scram-sha-256` compute it). Sent instead of the password, so the plain text never appears in
 * a statement, a server log or pg_stat_statements. The password is used as UTF-8 bytes without SASLprep, like
 * node-postgres does when it logs in: keep passwords ASCII (e.g. `openssl rand -hex 32`).
 */
export function scramVerifier(
  password: string,
  salt: Buffer = randomBytes(16),
  iterations = SCRAM_ITERATIONS,
): string {
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** Whether a stored SCRAM verifier is the one of `password` (so an unchanged password is not rewritten). */
function verifierMatches(stored: string | null, password: string): boolean {
  const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(stored ?? '');
  if (!m) return false;
  const expected = Buffer.from(stored!);
  const actual = Buffer.from(scramVerifier(password, Buffer.from(m[2]!, 'base64'), Number(m[1])));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

interface RoleRow {
  rolcanlogin: boolean;
  rolsuper: boolean;
  rolcreatedb: boolean;
  rolcreaterole: boolean;
  rolreplication: boolean;
  rolbypassrls: boolean;
  rolinherit: boolean;
}

/** Creates `role` or corrects its attributes. Never a superuser, never CREATEDB/CREATEROLE/REPLICATION/BYPASSRLS. */
async function ensureRole(
  client: pg.Client,
  role: string,
  login: boolean,
  password: string | undefined,
  canReadPasswords: boolean,
  result: BootstrapResult,
): Promise<void> {
  const attributes = `${login ? 'LOGIN' : 'NOLOGIN'} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT`;
  const { rows } = await client.query<RoleRow>(
    `SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolinherit
       FROM pg_roles WHERE rolname = $1`,
    [role],
  );
  const existing = rows[0];
  if (!existing) {
    const withPassword = password ? ` PASSWORD ${literal(scramVerifier(password))}` : '';
    await client.query(`CREATE ROLE ${quoteIdent(role)} WITH ${attributes}${withPassword}`);
    result.created.push(role);
    if (password) result.passwordsSet.push(role);
    return;
  }
  const wrong =
    existing.rolcanlogin !== login ||
    existing.rolsuper ||
    existing.rolcreatedb ||
    existing.rolcreaterole ||
    existing.rolreplication ||
    existing.rolbypassrls ||
    !existing.rolinherit;
  // Only when something differs: rewriting a pg_authid row on every start would make concurrent starts (several
  // databases of one cluster share the roles) collide for nothing.
  if (wrong) {
    await client.query(`ALTER ROLE ${quoteIdent(role)} WITH ${attributes}`);
    result.corrected.push(role);
  }
  if (!password) return;
  if (canReadPasswords) {
    const { rows: stored } = await client.query<{ rolpassword: string | null }>(
      'SELECT rolpassword FROM pg_authid WHERE rolname = $1',
      [role],
    );
    if (verifierMatches(stored[0]?.rolpassword ?? null, password)) return;
  }
  await client.query(`ALTER ROLE ${quoteIdent(role)} WITH PASSWORD ${literal(scramVerifier(password))}`);
  result.passwordsSet.push(role);
}

/** Can the session user SET ROLE to `role`? (Postgres 16 split membership into SET / INHERIT / ADMIN.) */
async function canSetRole(client: pg.Client, role: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    `SELECT pg_has_role(current_user, $1,
       CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END) AS ok`,
    [role],
  );
  return rows[0]?.ok === true;
}

interface OwnedObject {
  kind: string;
  name: string;
}

/**
 * Objects of `schema` not owned by `owner`, excluding extension members (they stay with the extension's owner) and
 * sequences that belong to a column (they follow their table).
 */
async function foreignOwnedObjects(client: pg.Client, schema: string, owner: string): Promise<OwnedObject[]> {
  const { rows } = await client.query<OwnedObject>(
    `WITH target AS (SELECT oid FROM pg_roles WHERE rolname = $2),
          ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1)
     SELECT CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'TABLE' WHEN 'v' THEN 'VIEW'
                           WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
                           WHEN 'S' THEN 'SEQUENCE' WHEN 'c' THEN 'TYPE' END AS kind,
            c.oid::regclass::text AS name
       FROM pg_class c
      WHERE c.relnamespace = (SELECT oid FROM ns)
        AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S', 'c')
        AND c.relowner <> (SELECT oid FROM target)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                          AND (d.deptype = 'e' OR (c.relkind = 'S' AND d.deptype IN ('a', 'i')
                                                   AND d.refclassid = 'pg_class'::regclass)))
     UNION ALL
     SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype::text
       FROM pg_type t
      WHERE t.typnamespace = (SELECT oid FROM ns)
        AND t.typtype IN ('e', 'd', 'r')
        AND t.typowner <> (SELECT oid FROM target)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid
                          AND d.deptype = 'e')
     UNION ALL
     SELECT 'ROUTINE', p.oid::regprocedure::text
       FROM pg_proc p
      WHERE p.pronamespace = (SELECT oid FROM ns)
        AND p.proowner <> (SELECT oid FROM target)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                          AND d.deptype = 'e')
     ORDER BY 1, 2`,
    [schema, owner],
  );
  // Tables first: ALTER TABLE ... OWNER also moves their indexes and column sequences.
  const rank = (kind: string) => (kind === 'TABLE' ? 0 : 1);
  return rows.sort((a, b) => rank(a.kind) - rank(b.kind));
}

async function bootstrapSchema(
  client: pg.Client,
  service: ServiceRoles,
  extensions: string[],
  result: BootstrapResult,
): Promise<void> {
  const { schema, owner, app } = service;
  const s = quoteIdent(schema);
  const o = quoteIdent(owner);
  const a = quoteIdent(app);

  const { rows } = await client.query<{ owner: string }>(
    `SELECT r.rolname AS owner FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = $1`,
    [schema],
  );
  if (!rows[0]) {
    await client.query(`CREATE SCHEMA ${s} AUTHORIZATION ${o}`);
  } else if (rows[0].owner !== owner) {
    await client.query(`ALTER SCHEMA ${s} OWNER TO ${o}`);
    result.reassigned.push(`schema ${schema}`);
  }
  for (const object of await foreignOwnedObjects(client, schema, owner)) {
    // A table's column sequences moved with it; skip anything an earlier statement already moved.
    const { rows: still } = await client.query<{ moved: boolean }>(
      object.kind === 'ROUTINE'
        ? `SELECT proowner = (SELECT oid FROM pg_roles WHERE rolname = $2) AS moved FROM pg_proc WHERE oid = $1::regprocedure`
        : object.kind === 'TYPE' || object.kind === 'DOMAIN'
          ? `SELECT typowner = (SELECT oid FROM pg_roles WHERE rolname = $2) AS moved FROM pg_type WHERE oid = $1::regtype`
          : `SELECT relowner = (SELECT oid FROM pg_roles WHERE rolname = $2) AS moved FROM pg_class WHERE oid = $1::regclass`,
      [object.name, owner],
    );
    if (still[0]?.moved) continue;
    await client.query(`ALTER ${object.kind} ${object.name} OWNER TO ${o}`);
    result.reassigned.push(`${object.kind.toLowerCase()} ${object.name}`);
  }

  // Installed by the administrator, in the service's schema: the owner cannot (no CREATE on the database), and the
  // migration's own CREATE EXTENSION IF NOT EXISTS then finds it and does nothing.
  for (const extension of extensions) {
    const { rowCount } = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [extension]);
    if (rowCount) continue;
    await client.query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(extension)} SCHEMA ${s}`);
    result.extensions.push(`${extension} (${schema})`);
  }

  // Grants are made by the owner itself, so they are recorded with it as grantor and need no superuser.
  await client.query(`SET LOCAL ROLE ${o}`);
  await client.query(`REVOKE ALL ON SCHEMA ${s} FROM PUBLIC`);
  await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${a}`);
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${a}`);
  await client.query(`REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA ${s} FROM ${a}`);
  await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${a}`);
  await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${a}`);
  await revokeMigrationHistory(client, schema, app);
  // Whatever later migrations create (as the owner) gets the same grants without another bootstrap.
  await client.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${o} IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${a}`,
  );
  await client.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${o} IN SCHEMA ${s} GRANT USAGE, SELECT ON SEQUENCES TO ${a}`,
  );
  await client.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${o} IN SCHEMA ${s} GRANT EXECUTE ON FUNCTIONS TO ${a}`,
  );
  await client.query('RESET ROLE');
}

/** The migration history is the migrator's: the app role may not read or rewrite it. */
async function revokeMigrationHistory(client: pg.Client, schema: string, app: string): Promise<void> {
  const { rows } = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [
    `${quoteIdent(schema)}._prisma_migrations`,
  ]);
  if (rows[0]?.t) await client.query(`REVOKE ALL ON TABLE ${rows[0].t} FROM ${quoteIdent(app)}`);
}

function validate(services: ServiceRoles[]): void {
  const seen = new Set<string>();
  for (const service of services) {
    assertSchemaName(service.schema);
    assertRoleName(service.owner);
    assertRoleName(service.app);
    for (const name of [service.owner, service.app]) {
      if (seen.has(name))
        throw new PrismaToolsError(
          'INVALID_OPTIONS',
          `Role ${name} is named for two schemas or two purposes.`,
        );
      seen.add(name);
    }
  }
}

async function bootstrapOnce(
  client: pg.Client,
  services: ServiceRoles[],
  extensionsBySchema: Map<string, string[]>,
): Promise<BootstrapResult> {
  const result: BootstrapResult = {
    created: [],
    passwordsSet: [],
    corrected: [],
    reassigned: [],
    extensions: [],
  };
  await client.query('BEGIN');
  // Only pg_catalog on the path: every name printed below (regclass, regtype, regprocedure) comes out schema-qualified.
  await client.query('SET LOCAL search_path TO pg_catalog');
  // Two bootstraps of one database (two replicas of the migration Job, two `npm start`s) take turns here.
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('prisma-tools.bootstrap-roles', 0))`);
  const { rows } = await client.query<{ superuser: boolean; database: string }>(
    `SELECT rolsuper AS superuser, current_database() AS database FROM pg_roles WHERE rolname = current_user`,
  );
  const { superuser, database } = rows[0]!;
  for (const service of services) {
    await ensureRole(client, service.owner, false, undefined, superuser, result);
    await ensureRole(client, service.app, true, service.appPassword, superuser, result);
    // A CREATEROLE administrator (managed Postgres) must be able to SET ROLE to the owner: the migrations and the
    // grants below run as it.
    if (!superuser && !(await canSetRole(client, service.owner)))
      await client.query(`GRANT ${quoteIdent(service.owner)} TO CURRENT_USER`);
  }

  // The database: only the service roles connect (the administrator owns it); no temporary tables for the services.
  const db = quoteIdent(database);
  await client.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
  for (const service of services) {
    await client.query(`GRANT CONNECT ON DATABASE ${db} TO ${quoteIdent(service.app)}`);
    // Migrations may use temporary tables (data back-fills); the owner never logs in, so it needs no CONNECT.
    await client.query(`GRANT TEMPORARY ON DATABASE ${db} TO ${quoteIdent(service.owner)}`);
  }
  // Nothing of ours lives in public: nobody but the administrator may create or look up anything there.
  const { rowCount: hasPublic } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'public'`);
  if (hasPublic) await client.query('REVOKE ALL ON SCHEMA public FROM PUBLIC');

  for (const service of services)
    await bootstrapSchema(client, service, extensionsBySchema.get(service.schema) ?? [], result);
  await client.query('COMMIT');
  return result;
}

function describeFailure(error: unknown): Error {
  if (error instanceof PrismaToolsError) return error;
  const e = error as { code?: string; message?: string };
  if (e.code === '42501') {
    return new PrismaToolsError(
      'DB_PRIVILEGES',
      `Setting up the service roles needs an administrator: DATABASE_URL's user must be a superuser, or have ` +
        `CREATEROLE and own the database (${e.message ?? 'permission denied'}).`,
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Creates or updates every service's owner and app roles, hands each schema and its objects to the owner, and
 * grants the app roles DML on their own schema only. Idempotent; one transaction (all or nothing); retried when a
 * concurrent bootstrap (another database of the same cluster shares the roles) gets in the way.
 */
export async function bootstrapRoles(options: BootstrapRolesOptions): Promise<BootstrapResult> {
  const { databaseUrl, services } = options;
  const logger = options.logger ?? silentLogger;
  validate(services);
  const extensionsBySchema = new Map<string, string[]>();
  for (const service of services) {
    if (!service.migrationsDir) continue;
    const { local } = await readMigrations(service.migrationsDir);
    extensionsBySchema.set(service.schema, extensionsCreated(local));
  }
  return withClient(databaseUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await bootstrapOnce(client, services, extensionsBySchema);
        for (const role of result.created) logger.info(`created role ${role}`);
        for (const object of result.reassigned) logger.info(`handed ${object} to its schema's owner`);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (attempt < 6 && isRace(error)) {
          await new Promise((r) => setTimeout(r, 50 * attempt + Math.floor(Math.random() * 100)));
          continue;
        }
        throw describeFailure(error);
      }
    }
  });
}

/**
 * After migrations: take back the app roles' default-privilege grant on `<schema>._prisma_migrations`, which the
 * first deploy creates as the owner (the next bootstrap would do it too; this closes the gap in between).
 */
export async function restrictMigrationHistory(options: {
  databaseUrl: string;
  schema: string;
  owner: string;
  app: string;
}): Promise<void> {
  assertSchemaName(options.schema);
  assertRoleName(options.app);
  assertRoleName(options.owner);
  await withClient(
    options.databaseUrl,
    (client) => revokeMigrationHistory(client, options.schema, options.app),
    options.owner,
  );
}
