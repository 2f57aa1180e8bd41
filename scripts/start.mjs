#!/usr/bin/env node
// `npm start`: install if needed, check infra, build, migrate, seed, run every service behind http://localhost:8080.
import fs from 'node:fs';
import path from 'node:path';
import { ensureInfra } from './lib/local-infra.mjs';
import { devSecrets, ROOT, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const step = (s) => console.log(`\n\x1b[1m▸ ${s}\x1b[0m`);

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) {
    step('Installing dependencies (npm ci)');
    await run('npm', ['ci', '--no-audit', '--no-fund']);
  }

  const env = stackEnv(process.env);
  step('Checking PostgreSQL, RabbitMQ and Redis');
  // What is missing on this machine is started with Docker when it can be (docker-compose.yml), else explained.
  if (!(await ensureInfra(env))) process.exit(1);

  step('Building (Prisma clients, TypeScript, front ends)');
  await run('npm', ['run', 'build'], { env });

  // As the administrator (DATABASE_URL): the service roles first, then each schema's migrations as its owner role.
  step('Setting up database roles and applying migrations');
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy'], { env });

  step('Starting services (each as its own database role)');
  const procs = startServices(env);
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping every service…');
    await stopServices(procs);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  for (const p of procs)
    p.child.on('exit', (code) => {
      if (!stopping) {
        console.error(`${p.name} exited unexpectedly (code ${code}); stopping the stack.`);
        void stop(1);
      }
    });

  await waitForHealthy(procs);
  const secrets = devSecrets(env);
  const url = `http://localhost:${env.GATEWAY_PORT}`;
  console.log(`\n\x1b[1;32m✔ Everything is up.\x1b[0m`);
  console.log(`  Site:       ${url}/`);
  console.log(`  Dashboard:  ${url}/dashboard`);
  console.log(`  Admin login: ${secrets.ADMIN_USERNAME} / ${secrets.ADMIN_PASSWORD}  (first start only; stored in .run/dev-secrets.json)`);
  console.log('  Press Ctrl-C to stop.\n');
}

main().catch((err) => {
  console.error(`\n✖ ${err.message}`);
  process.exit(1);
});
