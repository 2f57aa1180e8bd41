import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from 'pg';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(REPO_ROOT, 'packages/prisma-tools/bin/prisma-tools.mjs');
const DB_MIGRATE = path.join(REPO_ROOT, 'scripts/db-migrate.mjs');

/** Server to create throwaway databases on: DATABASE_URL's server if given (CI), else the local default. */
const SERVER_URL = (() => {
  const url = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  return url;
})();

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL.toString());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: SERVER_URL.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A uniquely named empty database; `drop()` removes it (and any shadow database a failed run left behind). */
export async function throwawayDatabase(
  label: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `pt_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => dropDatabase(name),
  };
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function query<R extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export async function databaseNames(prefix: string): Promise<string[]> {
  const rows = await admin((c) =>
    c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]),
  );
  return rows.rows.map((r) => r.datname);
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, PRISMA_TOOLS_FROM_SOURCE: '1', ...env }, timeout: 50_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Runs bin/prisma-tools.mjs with --json and returns the parsed result (or `{ error }`). */
export async function tool<T = Record<string, unknown>>(
  command: 'deploy' | 'create' | 'status' | 'resolve',
  target: { databaseUrl: string; schemaPath: string; migrationsDir: string; schema: string },
  extra: string[] = [],
): Promise<T & { error?: { code: string; message: string }; exitCode: number; stderr: string }> {
  const args = [
    command,
    '--json',
    '--database-url',
    target.databaseUrl,
    '--schema-path',
    target.schemaPath,
    '--migrations-dir',
    target.migrationsDir,
    '--schema',
    target.schema,
    ...extra,
  ];
  const result = await run(CLI, args);
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  let parsed: T;
  try {
    parsed = JSON.parse(last) as T;
  } catch {
    throw new Error(
      `prisma-tools ${command} printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { ...parsed, exitCode: result.code, stderr: result.stderr };
}

export function dbMigrate(args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return run(DB_MIGRATE, args, env);
}

export function tempDir(label: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `prisma-tools-${label}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const GENERATOR = `generator client {
  provider            = "prisma-client"
  output              = "../src/db/generated"
  moduleFormat        = "cjs"
  runtime             = "nodejs"
  importFileExtension = ""
}
`;

/** A service's prisma/schema.prisma; `models` must carry @@schema(<schema>). */
export function writeSchema(
  prismaDir: string,
  schema: string,
  models: string,
  generator = GENERATOR,
): string {
  mkdirSync(prismaDir, { recursive: true });
  const file = path.join(prismaDir, 'schema.prisma');
  writeFileSync(
    file,
    `${generator}\ndatasource db {\n  provider = "postgresql"\n  schemas  = ["${schema}"]\n}\n\n${models}`,
  );
  return file;
}
