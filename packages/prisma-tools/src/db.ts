import pg from 'pg';

import { PrismaToolsError } from './errors';

/** Postgres schema names this tool accepts: plain lower-case identifiers, no quoting needed anywhere. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Role names this tool accepts: the same plain identifiers (they are written unquoted into connection options). */
const ROLE_NAME = SCHEMA_NAME;

export function assertRoleName(role: string): void {
  if (!ROLE_NAME.test(role)) {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `Invalid Postgres role name ${JSON.stringify(role)}: use a lower-case identifier ([a-z_][a-z0-9_]*, at most 63 characters).`,
    );
  }
}

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `Invalid Postgres schema name ${JSON.stringify(schema)}: use a lower-case identifier ([a-z_][a-z0-9_]*, at most 63 characters).`,
    );
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function parseUrl(databaseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      'DATABASE_URL is not a valid URL (expected postgresql://user:password@host:5432/database).',
    );
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `DATABASE_URL must be a postgresql:// URL, got ${url.protocol}//…`,
    );
  }
  return url;
}

/** The URL with its password replaced, safe for logs and error messages. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<invalid DATABASE_URL>';
  }
}

export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(parseUrl(databaseUrl).pathname.replace(/^\//, ''));
  if (!name)
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `DATABASE_URL names no database: ${redactUrl(databaseUrl)}`,
    );
  return name;
}

/** The same server and credentials, another database. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = parseUrl(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * pg connection settings for a service schema. `search_path` is set on the connection itself (as the native
 * schema engine does with `?schema=`): the engine writes unqualified SQL (`CREATE TABLE "User"`, `_prisma_migrations`)
 * when the model schema is the connection's schema, so without it everything would land in `public`.
 * Prisma-style `?schema=` is dropped (pg does not know it) and a user-given `?options=` is kept.
 * `role` makes the session run as that role from its first statement (`-c role=…`, the startup form of SET ROLE,
 * which RESET ROLE and RESET ALL return to): the schema owner the migrations run as. The URL's user must be allowed
 * to SET ROLE to it (a superuser, or a member of the role).
 */
export function connectionConfig(databaseUrl: string, schema?: string, role?: string): pg.PoolConfig {
  const url = parseUrl(databaseUrl);
  const userOptions = url.searchParams.get('options');
  url.searchParams.delete('options');
  url.searchParams.delete('schema');
  if (role) assertRoleName(role);
  const options = [
    userOptions,
    schema ? `-c search_path=${schema}` : undefined,
    role ? `-c role=${role}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    connectionString: url.toString(),
    ...(options ? { options } : {}),
    application_name: 'prisma-tools',
    connectionTimeoutMillis: 10_000,
  };
}

interface PgErrorLike {
  code?: string;
  message?: string;
}

function describeConnectError(error: unknown, databaseUrl: string): PrismaToolsError {
  const e = (error ?? {}) as PgErrorLike;
  const where = redactUrl(databaseUrl);
  if (e.code === '3D000') {
    return new PrismaToolsError(
      'DB_MISSING',
      `Database "${databaseName(databaseUrl)}" does not exist (${where}).`,
      { cause: error },
    );
  }
  if (e.code === '28P01' || e.code === '28000') {
    return new PrismaToolsError(
      'DB_AUTH',
      `PostgreSQL refused the credentials in DATABASE_URL (${where}): ${e.message ?? ''}`,
      { cause: error },
    );
  }
  const url = new URL(databaseUrl);
  return new PrismaToolsError(
    'DB_UNREACHABLE',
    `Cannot reach PostgreSQL at ${url.hostname}:${url.port || 5432} (DATABASE_URL=${where}): ${e.message ?? String(error)}`,
    { cause: error },
  );
}

/**
 * Run `fn` with one short-lived client (as `role` when given, see connectionConfig); connection failures become
 * DB_UNREACHABLE / DB_MISSING / DB_AUTH.
 */
export async function withClient<T>(
  databaseUrl: string,
  fn: (client: pg.Client) => Promise<T>,
  role?: string,
): Promise<T> {
  const client = new pg.Client(connectionConfig(databaseUrl, undefined, role));
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw describeConnectError(error, databaseUrl);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Fails with a clear PrismaToolsError when the server or the database is not there. */
export async function checkConnection(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query('SELECT 1');
  });
}

/**
 * Creates the database named in `databaseUrl` when it does not exist (connecting to the server's `postgres`
 * maintenance database). Returns true when it created it.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  try {
    await checkConnection(databaseUrl);
    return false;
  } catch (error) {
    if (!(error instanceof PrismaToolsError) || error.code !== 'DB_MISSING') throw error;
  }
  return withClient(withDatabase(databaseUrl, 'postgres'), async (client) => {
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      if ((error as PgErrorLike).code === '42P04') return false; // created concurrently
      throw error;
    }
  });
}

export async function databaseExists(databaseUrl: string): Promise<boolean> {
  try {
    await checkConnection(databaseUrl);
    return true;
  } catch (error) {
    if (error instanceof PrismaToolsError && error.code === 'DB_MISSING') return false;
    throw error;
  }
}

/** Creates the schema when missing, owned by `owner` when given (else by the URL's user). */
export async function ensureSchema(databaseUrl: string, schema: string, owner?: string): Promise<void> {
  assertSchemaName(schema);
  if (owner) assertRoleName(owner);
  await withClient(databaseUrl, async (client) => {
    // Look first: CREATE SCHEMA IF NOT EXISTS checks CREATE on the database before it looks, and a migration that
    // runs as the schema's owner role has no CREATE on the database (docs/migrations.md, "Database roles").
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rowCount) return;
    await client.query(
      `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}${owner ? ` AUTHORIZATION ${quoteIdent(owner)}` : ''}`,
    );
  });
}

export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  } catch (error) {
    // WITH (FORCE) needs PostgreSQL 13+.
    if ((error as PgErrorLike).code !== '42601') throw error;
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
  }
}
