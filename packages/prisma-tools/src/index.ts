/**
 * @tyres/prisma-tools: real Prisma migrations without Prisma's native schema engine.
 *
 * Drives Prisma's own Wasm schema engine (@prisma/schema-engine-wasm) through @prisma/adapter-pg, bound with
 * bindMigrationAwareSqlAdapterFactory. Migrations stay in Prisma's standard layout
 * (`prisma/migrations/<timestamp>_<name>/migration.sql` + migration_lock.toml) and are recorded in
 * `<schema>._prisma_migrations` exactly as `prisma migrate deploy` records them, one table per service schema.
 * See docs/migrations.md.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

import type { DiagnoseMigrationHistoryOutput, SchemaContainer } from '@prisma/schema-engine-wasm';

import {
  assertRoleName,
  assertSchemaName,
  checkConnection,
  databaseExists,
  ensureSchema,
  quoteIdent,
  redactUrl,
  withClient,
} from './db';
import { type EngineSession, type Logger, silentLogger, withEngine } from './engine';
import { PrismaToolsError } from './errors';
import {
  declaredSchemas,
  destructiveStatements,
  handWrittenIndexes,
  isEmptyScript,
  keepHandWrittenIndexes,
  type LocalMigration,
  nextMigrationName,
  readMigrations,
  readSchemaFiles,
  slugifyMigrationName,
  writeMigration,
} from './migrations';

export { checkConnection, ensureDatabase, redactUrl } from './db';
export {
  bootstrapRoles,
  restrictMigrationHistory,
  scramVerifier,
  type BootstrapResult,
  type BootstrapRolesOptions,
  type ServiceRoles,
} from './roles';
export { isPrismaToolsError, PrismaToolsError, type PrismaToolsErrorCode } from './errors';
export {
  handWrittenIndexes,
  keepHandWrittenIndexes,
  nextMigrationName,
  slugifyMigrationName,
} from './migrations';
export type { Logger } from './engine';

export interface MigrationTarget {
  /** postgresql://user:password@host:port/database (the database must exist; see ensureDatabase). */
  databaseUrl: string;
  /** services/<name>/prisma/schema.prisma (or a folder of .prisma files). */
  schemaPath: string;
  /** services/<name>/prisma/migrations. */
  migrationsDir: string;
  /** The service's Postgres schema; must be the (only) entry of the datasource's `schemas`. */
  schema: string;
  /**
   * Run the migrations as this role (the schema's owner, see bootstrapRoles), so everything they create belongs to
   * it; the URL's user must be allowed to SET ROLE to it. Default: the URL's user. Ignored by `status` (read-only)
   * and by the shadow database of `create`.
   */
  role?: string;
  /** Progress and warnings; silent by default. */
  logger?: Logger;
}

export interface DeployResult {
  schema: string;
  /** Migrations applied by this call, in order. Empty when the database was already up to date. */
  applied: string[];
  /** Number of migrations in the folder. */
  total: number;
  warnings: string[];
}

export interface CreateOptions extends MigrationTarget {
  /** Human name; slugified (`Add phone` → `add_phone`) and prefixed with a UTC timestamp. */
  name: string;
  /** Write a migration even when the schema has not changed (for hand-written SQL such as partial indexes). */
  allowEmpty?: boolean;
  /** For tests: the clock used for the timestamp. */
  now?: Date;
}

export interface CreateResult {
  created: boolean;
  migrationName?: string;
  /** Absolute path of the written migration.sql. */
  file?: string;
  /** The generated SQL (also when nothing was written). */
  sql: string;
  message: string;
  warnings: string[];
}

export type MigrationState = 'applied' | 'pending' | 'failed' | 'rolled-back' | 'modified';

export interface MigrationStatus {
  name: string;
  state: MigrationState;
  /** finished_at of the successful run, if applied. */
  appliedAt?: string;
}

export interface StatusResult {
  schema: string;
  databaseExists: boolean;
  hasMigrationsTable: boolean;
  /** One entry per local migration folder, in order. */
  migrations: MigrationStatus[];
  /** Recorded as applied in the database but missing from the folder. */
  databaseOnly: string[];
  pending: string[];
  failed: string[];
  /** Applied, but migration.sql changed since (checksum mismatch). */
  modified: string[];
  upToDate: boolean;
}

export interface ResolveOptions extends MigrationTarget {
  migration: string;
  /** `rolled-back`: mark a failed migration as rolled back so deploy retries it (after you fixed the SQL or the
   * data); `applied`: record it as applied without running it (you applied it by hand). */
  as: 'applied' | 'rolled-back';
}

interface Prepared {
  databaseUrl: string;
  schema: string;
  role?: string;
  migrationsDir: string;
  files: SchemaContainer[];
  logger: Logger;
}

async function prepare(target: MigrationTarget): Promise<Prepared> {
  const { databaseUrl, schemaPath, migrationsDir, schema, role } = target;
  if (!databaseUrl) throw new PrismaToolsError('INVALID_OPTIONS', 'databaseUrl is required (DATABASE_URL).');
  if (!schemaPath || !migrationsDir)
    throw new PrismaToolsError('INVALID_OPTIONS', 'schemaPath and migrationsDir are required.');
  assertSchemaName(schema);
  if (role !== undefined) assertRoleName(role);
  const files = await readSchemaFiles(schemaPath);
  const declared = declaredSchemas(files);
  if (declared && (declared.length !== 1 || declared[0] !== schema)) {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `${path.relative(process.cwd(), files[0]?.path ?? schemaPath)} declares schemas = ${JSON.stringify(declared)}, but the migrations target schema "${schema}". ` +
        'Each service owns exactly one Postgres schema: declare schemas = ["' +
        schema +
        '"] and put @@schema("' +
        schema +
        '") on every model and enum.',
    );
  }
  return {
    databaseUrl,
    schema,
    role,
    migrationsDir: path.resolve(migrationsDir),
    files,
    logger: target.logger ?? silentLogger,
  };
}

function engineOptions(p: Prepared) {
  return {
    databaseUrl: p.databaseUrl,
    schema: p.schema,
    role: p.role,
    datamodels: p.files.map((f): [string, string] => [f.path, f.content]),
    logger: p.logger,
  };
}

function historyWarnings(diagnostic: DiagnoseMigrationHistoryOutput, schema: string): string[] {
  const h = diagnostic.history;
  if (!h) return [];
  if (h.diagnostic === 'migrationsDirectoryIsBehind') {
    return [
      `${schema}: the database has migrations that are not in the migrations folder: ${h.unpersistedMigrationNames.join(', ')}`,
    ];
  }
  if (h.diagnostic === 'historiesDiverge') {
    return [
      `${schema}: migration histories diverge after ${h.lastCommonMigrationName ?? '(the start)'}; ` +
        `only in the database: ${h.unpersistedMigrationNames.join(', ') || '-'}`,
    ];
  }
  return [];
}

async function diagnose(session: EngineSession, p: Prepared) {
  const { list } = await readMigrations(p.migrationsDir);
  return session.run('diagnoseMigrationHistory', (engine) =>
    engine.diagnoseMigrationHistory({
      migrationsList: list,
      optInToShadowDatabase: false,
      filters: { externalTables: [], externalEnums: [] },
    }),
  );
}

function failIfUnsafe(diagnostic: DiagnoseMigrationHistoryOutput, p: Prepared): void {
  const where = `${p.schema}._prisma_migrations`;
  if (diagnostic.failedMigrationNames.length > 0) {
    throw new PrismaToolsError(
      'FAILED_MIGRATION',
      `${where} records failed migration(s): ${diagnostic.failedMigrationNames.join(', ')}. Nothing more will be applied until it is resolved: ` +
        'fix the cause (the SQL or the data), then mark it rolled back so deploy retries it ' +
        `(node scripts/db-migrate.mjs resolve <service> --rolled-back <migration>), or, if you completed it by hand, --applied <migration>.`,
    );
  }
  if (diagnostic.editedMigrationNames.length > 0) {
    throw new PrismaToolsError(
      'CHECKSUM_MISMATCH',
      `Migration(s) ${diagnostic.editedMigrationNames.join(', ')} were modified after they were applied to ${p.schema} ` +
        `(checksum in ${where} differs from migration.sql). Applied migrations are immutable: restore the original file ` +
        '(git checkout) and put the change in a new migration.',
    );
  }
}

/**
 * Applies pending migrations, like `prisma migrate deploy`, recording them in `<schema>._prisma_migrations`.
 * Creates the schema if missing (owned by `role` when given). Idempotent. Refuses (CHECKSUM_MISMATCH / FAILED_MIGRATION) when an applied
 * migration was edited or a previous run failed; a migration that fails now throws MIGRATION_FAILED and is recorded
 * as failed (its statements run in one transaction, so none of them stay applied).
 */
export async function deploy(target: MigrationTarget): Promise<DeployResult> {
  const p = await prepare(target);
  const { local } = await readMigrations(p.migrationsDir);
  await checkConnection(p.databaseUrl);
  await ensureSchema(p.databaseUrl, p.schema, p.role);
  if (local.length === 0) {
    p.logger.info(`${p.schema}: no migrations in ${p.migrationsDir}`);
    return { schema: p.schema, applied: [], total: 0, warnings: [] };
  }
  return withEngine(engineOptions(p), async (session) => {
    const diagnostic = await diagnose(session, p);
    failIfUnsafe(diagnostic, p);
    const warnings = historyWarnings(diagnostic, p.schema);
    warnings.forEach((w) => p.logger.warn(w));
    const { list } = await readMigrations(p.migrationsDir);
    let applied: string[];
    try {
      ({ appliedMigrationNames: applied } = await session.run('applyMigrations', (engine) =>
        engine.applyMigrations({ migrationsList: list, filters: { externalTables: [], externalEnums: [] } }),
      ));
    } catch (error) {
      if (!(error instanceof PrismaToolsError) || error.code !== 'ENGINE_ERROR') throw error;
      const raw = error.cause instanceof Error ? error.cause.message : '';
      const failed = /migration_name="([^"]+)"/.exec(raw)?.[1];
      const reason = error.message.replace(/^applyMigrations failed: /, '');
      throw new PrismaToolsError(
        'MIGRATION_FAILED',
        failed
          ? `${p.schema}: migration ${failed} failed; none of its statements stayed applied (one transaction) and it is recorded as failed in ${p.schema}._prisma_migrations: ${reason}`
          : `${p.schema}: ${reason}`,
        { cause: error },
      );
    }
    for (const name of applied) p.logger.info(`${p.schema}: applied ${name}`);
    return { schema: p.schema, applied, total: local.length, warnings };
  });
}

/**
 * Writes the next migration: replays the existing migrations into a throwaway shadow database (created and dropped
 * here; needs CREATEDB) and diffs that against schema.prisma, like `prisma migrate dev --create-only`. Does not
 * touch the migrations already applied anywhere. No-op with a message when nothing changed (unless allowEmpty).
 * Hand-written partial / expression indexes in earlier migrations are never dropped by the generated SQL.
 */
export async function create(options: CreateOptions): Promise<CreateResult> {
  const p = await prepare(options);
  const slug = slugifyMigrationName(options.name);
  const { list, local } = await readMigrations(p.migrationsDir);
  await checkConnection(p.databaseUrl);
  const generated = await withEngine(engineOptions(p), (session) =>
    session.run('diff', (engine) =>
      engine.diff({
        from: { tag: 'migrations', ...list },
        to: { tag: 'schemaDatamodel', files: p.files },
        script: true,
        exitCode: null,
        filters: { externalTables: [], externalEnums: [] },
      }),
    ),
  );
  const warnings: string[] = [];
  const kept = keepHandWrittenIndexes(generated.stdout ?? '', handWrittenIndexes(local));
  for (const statement of kept.removed) {
    warnings.push(
      `Removed "${statement}" from the generated SQL: that index is hand-written in an earlier migration (partial or expression index, ` +
        "which Prisma's schema cannot express). If you really mean to drop it, write the DROP INDEX yourself.",
    );
  }
  const sql = kept.sql;
  if (isEmptyScript(sql) && !options.allowEmpty) {
    const message = `${p.schema}: schema.prisma matches the migrations; no migration created.`;
    p.logger.info(message);
    warnings.forEach((w) => p.logger.warn(w));
    return { created: false, sql, message, warnings };
  }
  for (const statement of destructiveStatements(sql))
    warnings.push(`Destructive statement, review before committing: ${statement}`);
  const migrationName = nextMigrationName(
    slug,
    local.map((m) => m.name),
    options.now,
  );
  const body = isEmptyScript(sql) ? '-- This is an empty migration.\n' : sql;
  const file = await writeMigration(p.migrationsDir, migrationName, body);
  const message = `${p.schema}: created ${path.relative(process.cwd(), file)}`;
  p.logger.info(message);
  warnings.forEach((w) => p.logger.warn(w));
  return { created: true, migrationName, file, sql: body, message, warnings };
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applied / pending / failed / modified migrations of one schema. Read-only. */
export async function status(target: MigrationTarget): Promise<StatusResult> {
  const p = await prepare(target);
  const { local } = await readMigrations(p.migrationsDir);
  const exists = await databaseExists(p.databaseUrl);
  const rows = exists ? await readMigrationsTable(p.databaseUrl, p.schema) : undefined;
  return summarize(p.schema, exists, local, rows);
}

async function readMigrationsTable(databaseUrl: string, schema: string): Promise<MigrationRow[] | undefined> {
  return withClient(databaseUrl, async (client) => {
    const { rows: found } = await client.query<{ exists: boolean }>(
      `SELECT to_regclass($1) IS NOT NULL AS exists`,
      [`${quoteIdent(schema)}._prisma_migrations`],
    );
    if (!found[0]?.exists) return undefined;
    const { rows } = await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${quoteIdent(schema)}._prisma_migrations ORDER BY started_at`,
    );
    return rows;
  });
}

function summarize(
  schema: string,
  exists: boolean,
  local: LocalMigration[],
  rows: MigrationRow[] | undefined,
): StatusResult {
  const byName = new Map<string, MigrationRow[]>();
  for (const row of rows ?? [])
    byName.set(row.migration_name, [...(byName.get(row.migration_name) ?? []), row]);
  const migrations: MigrationStatus[] = local.map(({ name, checksum }) => {
    const runs = byName.get(name) ?? [];
    const ok = runs.find((r) => r.finished_at && !r.rolled_back_at);
    if (ok) {
      // Prisma also accepts a checksum computed with CRLF line endings normalised; mirror that.
      const alt = checksumVariants(local.find((m) => m.name === name)?.sql ?? '');
      const state: MigrationState =
        ok.checksum === checksum || alt.includes(ok.checksum) ? 'applied' : 'modified';
      return { name, state, appliedAt: ok.finished_at?.toISOString() };
    }
    if (runs.some((r) => !r.finished_at && !r.rolled_back_at)) return { name, state: 'failed' };
    if (runs.length > 0) return { name, state: 'rolled-back' };
    return { name, state: 'pending' };
  });
  const localNames = new Set(local.map((m) => m.name));
  const databaseOnly = [...byName.entries()]
    .filter(([name, runs]) => !localNames.has(name) && runs.some((r) => r.finished_at && !r.rolled_back_at))
    .map(([name]) => name);
  const pick = (...states: MigrationState[]) =>
    migrations.filter((m) => states.includes(m.state)).map((m) => m.name);
  const pending = pick('pending', 'rolled-back');
  const failed = pick('failed');
  const modified = pick('modified');
  return {
    schema,
    databaseExists: exists,
    hasMigrationsTable: rows !== undefined,
    migrations,
    databaseOnly,
    pending,
    failed,
    modified,
    upToDate: pending.length === 0 && failed.length === 0 && modified.length === 0,
  };
}

function checksumVariants(sql: string): string[] {
  const variants = new Set([sql.replace(/\r\n/g, '\n'), sql.replace(/\r?\n/g, '\r\n')]);
  return [...variants].map((v) => createHash('sha256').update(v).digest('hex'));
}

/** `prisma migrate resolve`: mark a failed migration rolled back, or a migration applied without running it. */
export async function resolve(options: ResolveOptions): Promise<void> {
  const p = await prepare(options);
  const { list, local } = await readMigrations(p.migrationsDir);
  if (!local.some((m) => m.name === options.migration)) {
    throw new PrismaToolsError(
      'INVALID_OPTIONS',
      `No migration folder named ${options.migration} in ${p.migrationsDir}`,
    );
  }
  await checkConnection(p.databaseUrl);
  await ensureSchema(p.databaseUrl, p.schema, p.role);
  await withEngine(engineOptions(p), async (session) => {
    if (options.as === 'rolled-back') {
      await session.run('markMigrationRolledBack', (engine) =>
        engine.markMigrationRolledBack({ migrationName: options.migration }),
      );
    } else {
      await session.run('markMigrationApplied', (engine) =>
        engine.markMigrationApplied({ migrationName: options.migration, migrationsList: list }),
      );
    }
  });
  p.logger.info(`${p.schema}: marked ${options.migration} as ${options.as} (${redactUrl(p.databaseUrl)})`);
}
