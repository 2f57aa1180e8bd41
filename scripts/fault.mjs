#!/usr/bin/env node
// Fault run (issue 15): starts the gateway and booking as real processes on their own ports and database, runs the
// jest project `fault` (test/fault/*.fault.test.ts) against them, which stops and restarts the machine's RabbitMQ
// and Redis, then stops the processes and makes sure Redis and RabbitMQ are running again, whatever jest did.
// `node scripts/fault.mjs` (also a stage of `npm test`). Never alongside another test run: by hand, wrap it in
// `flock /tmp/e2e.lock`; `npm test` runs its stages one after another.
//   FAULT_SKIP_BUILD=1   reuse the current build of gateway and booking
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { restoreInfrastructure } from './lib/fault-infra.mjs';
import {
  checkInfra,
  devSecrets,
  ROOT,
  run,
  stackEnv,
  startServices,
  stopServices,
  waitForHealthy,
} from './lib/stack.mjs';

const database = `tyres_fault_${process.pid}`;
/** The whole jest run's wall-clock limit (the suite takes about a minute). */
const FAULT_TIMEOUT_MS = Number(process.env.FAULT_TIMEOUT_MS ?? 10 * 60_000);
let running;

// Ctrl-C or a CI job's SIGTERM mid-outage: stop jest, put Redis and RabbitMQ back, then exit.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`fault stage: ${signal}, restoring Redis and RabbitMQ before exiting`);
    running?.kill('SIGKILL');
    restoreInfrastructure()
      .catch((err) => console.error(err))
      .finally(() => process.exit(130));
  });
}
const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

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

async function main() {
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  // Below Linux's ephemeral range (32768-60999): after the integration stage's thousands of connections a port in
  // that range can be some client socket's local port, and the gateway then fails to listen (CI, session 6).
  const offset = 30000 + (process.pid % 270) * 10;
  const env = stackEnv(process.env, {
    DATABASE_URL: dbUrl.toString(),
    EVENT_PREFIX: `fault-${process.pid}.`,
    REDIS_PREFIX: `fault-${process.pid}:`,
    LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'error',
    GATEWAY_PORT: offset + 8,
    PORT_OFFSET: offset - 3000,
    // The suite logs in many times from one address; the per-username limit is what it exercises.
    LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    LOGIN_MAX_FAILURES_PER_USERNAME: '3',
  });
  if (!(await checkInfra(env))) process.exit(1);
  if (!process.env.FAULT_SKIP_BUILD) {
    await run('npm', ['run', 'prisma:generate'], { env });
    await run('npx', ['tsc', '-b', 'services/gateway', 'services/booking'], { env });
  }
  await sql(`CREATE DATABASE "${database}"`);
  let procs = [];
  let code;
  try {
    await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', 'gateway', 'booking'], { env });
    procs = startServices(env, { quiet: !process.env.FAULT_VERBOSE, only: ['booking', 'gateway'] });
    await waitForHealthy(procs);
    const secrets = devSecrets(env);
    code = await new Promise((resolve) => {
      const child = spawn(
        'npx',
        [
          'jest',
          '--selectProjects',
          'fault',
          '--runInBand',
          '--forceExit',
          '--json',
          `--outputFile=${path.join(ROOT, '.run', 'jest-fault.json')}`,
          ...process.argv.slice(2),
        ],
        {
          cwd: ROOT,
          stdio: 'inherit',
          env: {
            ...process.env,
            FAULT_BASE_URL: `http://127.0.0.1:${env.GATEWAY_PORT}`,
            FAULT_ADMIN_USERNAME: secrets.ADMIN_USERNAME,
            FAULT_ADMIN_PASSWORD: secrets.ADMIN_PASSWORD,
          },
        },
      );
      running = child;
      // A hung suite must not keep Redis or RabbitMQ down: past the limit it is killed and the finally restores.
      const limit = setTimeout(() => {
        console.error(`fault stage: jest still running after ${FAULT_TIMEOUT_MS / 1000} s, killing it`);
        child.kill('SIGKILL');
      }, FAULT_TIMEOUT_MS);
      child.on('exit', (c) => {
        clearTimeout(limit);
        running = undefined;
        resolve(c ?? 1);
      });
    });
  } finally {
    await stopServices(procs);
    await restoreInfrastructure();
    await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    // Roles are per service and shared by every database: nothing else to remove.
  }
  process.exit(code ?? 1);
}

main().catch(async (err) => {
  console.error(err);
  await restoreInfrastructure().catch((e) => console.error(e));
  process.exit(1);
});
