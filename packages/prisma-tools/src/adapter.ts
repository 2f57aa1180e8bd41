import { randomBytes } from 'node:crypto';

import { PrismaPg } from '@prisma/adapter-pg';
import {
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';

import { connectionConfig, databaseName, dropDatabase, quoteIdent, withClient, withDatabase } from './db';
import { PrismaToolsError } from './errors';

/**
 * Postgres' internal one-byte `"char"` type (OID 18). The schema engine's catalog queries return it
 * (pg_constraint.contype, confdeltype, …) and expect a Character column, but @prisma/adapter-pg 7.10 has no
 * mapping for it and fails with "Column type 'char' could not be deserialized". CharAwareClient tags such columns
 * and the adapter wrapper reports them as ColumnTypeEnum.Character.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
const CHAR_TAG = '\u0000pg_char';

type QueryCallback = (err: Error | null, res?: unknown) => void;
interface FieldLike {
  name: string;
  dataTypeID: number;
}

function tagCharColumns(result: unknown): unknown {
  for (const res of Array.isArray(result) ? result : [result]) {
    const fields = (res as { fields?: FieldLike[] } | undefined)?.fields;
    if (!Array.isArray(fields)) continue;
    for (const field of fields) {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID; // values are already parsed as strings
        field.name += CHAR_TAG;
      }
    }
  }
  return result;
}

class CharAwareClient extends pg.Client {}
type LooseQuery = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
const baseQuery = pg.Client.prototype.query as unknown as LooseQuery;
(CharAwareClient.prototype as unknown as { query: LooseQuery }).query = function (config, values, callback) {
  if (
    config !== null &&
    typeof config === 'object' &&
    typeof (config as { submit?: unknown }).submit === 'function'
  ) {
    return baseQuery.call(this, config, values, callback);
  }
  const cb = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
  const vals = typeof values === 'function' ? undefined : values;
  if (cb)
    return baseQuery.call(this, config, vals, (err: Error | null, res?: unknown) =>
      cb(err, err ? res : tagCharColumns(res)),
    );
  return (baseQuery.call(this, config, vals) as Promise<unknown>).then(tagCharColumns);
};

function untagCharColumns(result: SqlResultSet): SqlResultSet {
  result.columnNames = result.columnNames.map((name, i) => {
    if (!name.endsWith(CHAR_TAG)) return name;
    result.columnTypes[i] = ColumnTypeEnum.Character;
    return name.slice(0, -CHAR_TAG.length);
  });
  return result;
}

interface AdapterInternals {
  onError(error: unknown): never;
  underlyingDriver(): pg.Pool;
}

function patchTransaction(tx: Transaction): Transaction {
  const queryRaw = tx.queryRaw.bind(tx);
  tx.queryRaw = async (query: SqlQuery) => untagCharColumns(await queryRaw(query));
  return tx;
}

/**
 * Patches a PrismaPg adapter for the schema engine:
 * - catalog `"char"` columns (see CharAwareClient);
 * - executeScript sends the whole script as ONE simple-protocol query instead of adapter-pg's naive split on ';'
 *   (which breaks `$$` bodies and string literals). Like the native engine, Postgres then runs a multi-statement
 *   migration in one implicit transaction: a failing migration leaves nothing half-applied.
 */
function patchAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const internals = adapter as unknown as AdapterInternals;
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query: SqlQuery) => untagCharColumns(await queryRaw(query));
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => patchTransaction(await startTransaction(...args));
  adapter.executeScript = async (script: string) => {
    try {
      await internals.underlyingDriver().query(script);
    } catch (error) {
      internals.onError(error);
    }
  };
  let disposed: Promise<void> | undefined;
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = () => (disposed ??= dispose());
  return adapter;
}

async function openAdapter(databaseUrl: string, schema: string, role?: string): Promise<SqlDriverAdapter> {
  const pool = new pg.Pool({
    ...connectionConfig(databaseUrl, schema, role),
    max: 4,
    Client: CharAwareClient,
  });
  const factory = new PrismaPg(pool, { schema, disposeExternalPool: true });
  return patchAdapter(await factory.connect());
}

const SHADOW_PREFIX = 'prisma_tools_shadow_';
/** Shadow databases older than this are leftovers of a killed run and are dropped by the next `create`. */
const STALE_SHADOW_SECONDS = 3600;

export interface ServiceAdapterFactoryOptions {
  databaseUrl: string;
  schema: string;
  /** Role the main database's sessions run as (the schema owner). The throwaway shadow database ignores it. */
  role?: string;
}

/**
 * A migration-aware adapter factory for one service schema, built on @prisma/adapter-pg. Feed it to
 * `bindMigrationAwareSqlAdapterFactory` and the Wasm schema engine. The shadow database (used to replay the
 * migrations history when diffing) is created here and dropped on dispose, or at the latest in `close()`.
 */
export class ServiceAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName = '@prisma/adapter-pg';
  /** The first JS-side failure (e.g. no CREATEDB privilege); the engine only reports it as a generic error. */
  lastError: unknown;

  private readonly adapters = new Set<SqlDriverAdapter>();
  private readonly shadowDatabases = new Set<string>();

  constructor(private readonly options: ServiceAdapterFactoryOptions) {}

  async connect(): Promise<SqlDriverAdapter> {
    return this.track(await openAdapter(this.options.databaseUrl, this.options.schema, this.options.role));
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    try {
      const name = await this.createShadowDatabase();
      const shadowUrl = withDatabase(this.options.databaseUrl, name);
      const adapter = await openAdapter(shadowUrl, this.options.schema);
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await this.dropShadowDatabase(name);
      };
      return this.track(adapter);
    } catch (error) {
      this.lastError ??= error;
      throw error;
    }
  }

  /** Disposes every adapter handed out (closing the pools) and drops any shadow database still around. */
  async close(): Promise<void> {
    const adapters = [...this.adapters];
    this.adapters.clear();
    await Promise.allSettled(adapters.map((a) => a.dispose()));
    for (const name of [...this.shadowDatabases]) await this.dropShadowDatabase(name).catch(() => undefined);
  }

  private track(adapter: SqlDriverAdapter): SqlDriverAdapter {
    this.adapters.add(adapter);
    return adapter;
  }

  private async createShadowDatabase(): Promise<string> {
    const name = `${SHADOW_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
    const { databaseUrl, schema } = this.options;
    await withClient(databaseUrl, async (client) => {
      await this.dropStaleShadowDatabases(client);
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      } catch (error) {
        throw new PrismaToolsError(
          'SHADOW_DATABASE',
          `Could not create the shadow database ${name} next to "${databaseName(databaseUrl)}": ${(error as Error).message}. ` +
            'The database user needs the CREATEDB privilege (ALTER ROLE <user> CREATEDB).',
          { cause: error },
        );
      }
    });
    this.shadowDatabases.add(name);
    await withClient(withDatabase(databaseUrl, name), async (client) => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    });
    return name;
  }

  private async dropShadowDatabase(name: string): Promise<void> {
    await withClient(this.options.databaseUrl, (client) => dropDatabase(client, name));
    this.shadowDatabases.delete(name);
  }

  private async dropStaleShadowDatabases(client: pg.Client): Promise<void> {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE '${SHADOW_PREFIX.replace(/_/g, '\\_')}%'`,
    );
    const now = Date.now() / 1000;
    for (const { datname } of rows) {
      const created = Number(/^prisma_tools_shadow_(\d+)_/.exec(datname)?.[1]);
      if (Number.isFinite(created) && now - created > STALE_SHADOW_SECONDS) {
        await dropDatabase(client, datname).catch(() => undefined);
      }
    }
  }
}
