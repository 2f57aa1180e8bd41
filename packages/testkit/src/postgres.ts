import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { forgetWorkerState, getDatabaseUrl, workerState } from './infra';

/**
 * Test databases: every test file gets its own database on the server DATABASE_URL points at (or the
 * container), created empty or as a copy of a migrated template (`CREATE DATABASE ... TEMPLATE`, which copies
 * files and takes well under a second). Names carry their creation time, so databases left behind by a crashed
 * run are dropped by a later run once they are older than TESTKIT_STALE_DB_HOURS (default 6).
 * Prefixes: tk_ test databases, tkt_ per-run templates, tkb_ templates being built, tkp_ pinned templates.
 */

export interface TestDatabase {
  name: string;
  /** Connection URL of this database (same server and credentials as the admin URL). */
  url: string;
  /** Drops the database, terminating any connection still open to it. */
  drop(): Promise<void>;
}

export interface TemplateDatabase {
  key: string;
  name: string;
  url: string;
  /** A fresh copy of the template. */
  createDatabase(label?: string): Promise<TestDatabase>;
  /** Drops the template (and forgets it in this worker); normally left for the stale sweep or reuse. */
  drop(): Promise<void>;
}

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function quote(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid database name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

function sanitize(label: string, max: number): string {
  const s = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max);
  return s || 'db';
}

function stamp(): string {
  return Math.floor(Date.now() / 1000).toString(36);
}

function rand(): string {
  return randomBytes(4).toString('hex').slice(0, 6);
}

/** `tk_<label>_<seconds base36>_<random>`: unique, and its age can be read back. */
function uniqueName(prefix: 'tk' | 'tkt', label: string): string {
  return `${prefix}_${sanitize(label, 30)}_${stamp()}_${rand()}`;
}

/** The admin URL with its database replaced. */
export function databaseUrl(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

async function withAdmin<T>(fn: (client: Client, adminUrl: string) => Promise<T>): Promise<T> {
  const adminUrl = await getDatabaseUrl();
  const client = new Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client, adminUrl);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropDatabase(client: Client, name: string): Promise<void> {
  const { rows } = await client.query<{ datistemplate: boolean }>(
    'SELECT datistemplate FROM pg_database WHERE datname = $1',
    [name],
  );
  if (rows[0]?.datistemplate) await client.query(`ALTER DATABASE ${quote(name)} WITH IS_TEMPLATE false`);
  await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
}

/**
 * Drops databases this kit created (tk_*, tkt_*, tkb_*) that are older than `olderThanMs`; pinned templates
 * (tkp_*, built with a fingerprint) are kept. Returns the dropped names.
 */
export async function dropStaleTestDatabases(
  olderThanMs = Number(process.env.TESTKIT_STALE_DB_HOURS ?? 6) * 3600_000,
): Promise<string[]> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname ~ '^tk[tb]?_'`,
    );
    const cutoff = Date.now() - olderThanMs;
    const dropped: string[] = [];
    for (const { datname } of rows) {
      const parts = datname.split('_');
      const ts = parts.length >= 3 ? parseInt(parts[parts.length - 2] as string, 36) : NaN;
      if (!Number.isFinite(ts) || ts * 1000 > cutoff) continue;
      try {
        await dropDatabase(client, datname);
        dropped.push(datname);
      } catch {
        // another worker may be dropping it too
      }
    }
    return dropped;
  });
}

function sweepOncePerWorker(): Promise<unknown> {
  return workerState('stale-db-sweep', () => dropStaleTestDatabases().catch(() => []));
}

async function createFrom(client: Client, name: string, template?: string): Promise<void> {
  const sql = `CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ''}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(sql);
      return;
    } catch (err) {
      // 55006: the template is being accessed by other users (a concurrent copy or a stray connection).
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) {
        if ((err as { code?: string }).code === '42501') {
          throw new Error(
            `The DATABASE_URL role cannot CREATE DATABASE (needs CREATEDB): ${(err as Error).message}`,
            {
              cause: err,
            },
          );
        }
        throw err;
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/**
 * Creates a fresh, uniquely named database (empty, or a copy of `options.template`).
 * `label` only makes the name readable (e.g. the test file name).
 */
export async function createTestDatabase(
  label = 'test',
  options: { template?: string } = {},
): Promise<TestDatabase> {
  await sweepOncePerWorker();
  const name = uniqueName('tk', label);
  return withAdmin(async (client, adminUrl) => {
    await createFrom(client, name, options.template);
    return {
      name,
      url: databaseUrl(adminUrl, name),
      drop: () => withAdmin((c) => dropDatabase(c, name)),
    };
  });
}

/**
 * Builds a migrated template database once per `key` (per jest worker; with a `fingerprint`, e.g. a hash of
 * the migrations folder, once for as long as the fingerprint does not change) and returns a handle that copies
 * it. `migrate(url)` must close its connections before resolving (leftovers are terminated).
 *
 *   const template = await createTemplateDatabase('jobs', (url) => migrateJobs(url));
 *   const db = await template.createDatabase('job-status.int');
 */
export function createTemplateDatabase(
  key: string,
  migrate: (url: string) => Promise<void>,
  options: { fingerprint?: string } = {},
): Promise<TemplateDatabase> {
  const cacheKey = `template:${key}:${options.fingerprint ?? ''}`;
  const pending = workerState(cacheKey, () =>
    buildTemplate(key, migrate, options.fingerprint, () => forgetWorkerState(cacheKey)),
  );
  // The worker cache outlives each test file's module registry, so only plain data may come from it: the
  // handle's functions are rebuilt here, in the calling file's registry (a closure from an earlier file would
  // use that file's torn-down pg module).
  return pending.then(
    ({ name, url }): TemplateDatabase => ({
      key,
      name,
      url,
      createDatabase: (label = key) => createTestDatabase(label, { template: name }),
      drop: async () => {
        forgetWorkerState(cacheKey);
        await withAdmin((c) => dropDatabase(c, name));
      },
    }),
    (err: unknown) => {
      // A failed build must not stick for the whole worker: the next test file tries again.
      forgetWorkerState(cacheKey);
      throw err;
    },
  );
}

async function buildTemplate(
  key: string,
  migrate: (url: string) => Promise<void>,
  fingerprint: string | undefined,
  forget: () => void,
): Promise<TemplateDatabase> {
  await sweepOncePerWorker();
  const name = fingerprint
    ? `tkp_${sanitize(key, 40)}_${createHash('sha256').update(fingerprint).digest('hex').slice(0, 12)}`
    : uniqueName('tkt', key);
  const adminUrl = await withAdmin(async (client, url) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return url;
      const building = `tkb_${stamp()}_${rand()}`;
      await createFrom(client, building);
      try {
        await migrate(databaseUrl(url, building));
        await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
          building,
        ]);
        await client.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(name)}`);
        // Nobody may connect to a template (a connection would block every copy).
        await client.query(`ALTER DATABASE ${quote(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      } catch (err) {
        await dropDatabase(client, building).catch(() => undefined);
        throw err;
      }
      return url;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  });
  return {
    key,
    name,
    url: databaseUrl(adminUrl, name),
    createDatabase: (label = key) => createTestDatabase(label, { template: name }),
    drop: async () => {
      forget();
      await withAdmin((c) => dropDatabase(c, name));
    },
  };
}
