#!/usr/bin/env node
// The whole stack for tracing.int.test.ts, from source: a database of its own (migrated), every service run with
// tsx from services/<name>/src/main.ts (no build needed: @tyres/* resolve to packages/*/src through
// tracing.tsconfig.json), its own event and Redis prefixes and ports. The OTEL_* variables of the caller reach
// every service. Prints one JSON line `{"ready":true,...}` on stdout once every service is ready; SIGTERM stops
// the services and drops the database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { databasePasswordVariable, databaseUrlVariable } from '../../scripts/lib/database-roles.mjs';
import { devSecrets, ROOT, run, SERVICES, stackEnv, waitForHealthy } from '../../scripts/lib/stack.mjs';

const tag = `trace_${process.pid}`;
const database = `tyres_${tag}`;
const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const basePort = Number(process.env.TRACE_STACK_PORT ?? 30000 + (process.pid % 500) * 10);

async function sql(query) {
  const u = new URL(adminUrl);
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** As scripts/lib/stack.mjs gives each service only its own database role. */
function serviceEnv(env, service) {
  const own = env[databaseUrlVariable(service)];
  const result = { ...env };
  for (const s of SERVICES) {
    delete result[databaseUrlVariable(s.name)];
    delete result[databasePasswordVariable(s.name)];
  }
  if (own) result.DATABASE_URL = own;
  return result;
}

const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${database}`;
const env = stackEnv(process.env, {
  DATABASE_URL: dbUrl.toString(),
  EVENT_PREFIX: `${tag}.`,
  REDIS_PREFIX: `${tag}:`,
  LOG_LEVEL: process.env.TRACE_STACK_LOG_LEVEL ?? 'warn',
  // The email job must run now, whatever the time in Perth (quiet hours have their own tests).
  QUIET_HOURS: 'off',
  GATEWAY_PORT: basePort + 8,
  PORT_OFFSET: basePort - 3000,
  TSX_TSCONFIG_PATH: path.join(ROOT, 'test', 'integration', 'tracing.tsconfig.json'),
});

let procs = [];
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    procs.map(
      (p) =>
        new Promise((resolve) => {
          if (p.child.exitCode !== null) return resolve();
          const kill = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
          p.child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
  await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
  process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

async function main() {
  await sql(`CREATE DATABASE "${database}"`);
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const offset = Number(env.PORT_OFFSET);
  procs = SERVICES.map((svc) => {
    const port = svc.name === 'gateway' ? Number(env.GATEWAY_PORT) : svc.port + offset;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('services', svc.name, 'src', 'main.ts')],
      {
        cwd: ROOT,
        env: { ...serviceEnv(env, svc.name), PORT: String(port), SERVICE_NAME: svc.name },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.once('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`${svc.name} exited unexpectedly (${code})\n`);
        void stop(1);
      }
    });
    return { ...svc, port, child };
  });
  await waitForHealthy(procs, 120_000);
  const secrets = devSecrets(env);
  process.stdout.write(
    `${JSON.stringify({
      ready: true,
      gateway: `http://127.0.0.1:${env.GATEWAY_PORT}`,
      username: secrets.ADMIN_USERNAME,
      password: secrets.ADMIN_PASSWORD,
    })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`tracing stack failed: ${err.stack ?? err}\n`);
  void stop(1);
});
