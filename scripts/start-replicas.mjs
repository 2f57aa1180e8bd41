#!/usr/bin/env node
// `npm run start:replicas`: like `npm start`, but two replicas of every service and of the gateway behind HAProxy
// (scripts/lib/replicas.mjs). Both replicas share PostgreSQL, RabbitMQ and Redis: queue consumers compete, outbox
// relays share the outbox (SKIP LOCKED), and each notify replica has its own live feed for its own dashboards.
//
//   REPLICAS_SKIP_BUILD=1   reuse the current build
// Ports: GATEWAY_PORT (default 8080) and PORT_OFFSET (default 0), as for `npm start`; see scripts/lib/replicas.mjs.
import { ensureInfra } from './lib/local-infra.mjs';
import { findHaproxy, HAPROXY_INSTALL, startReplicas } from './lib/replicas.mjs';
import { devSecrets, run, stackEnv } from './lib/stack.mjs';

const step = (s) => console.log(`\n\x1b[1m▸ ${s}\x1b[0m`);

async function main() {
  if (!findHaproxy()) {
    console.error(
      `✖ HAProxy is not installed (the load balancer in front of the replicas). Install it with:\n    ${HAPROXY_INSTALL}`,
    );
    process.exit(1);
  }
  const env = stackEnv(process.env, {
    GATEWAY_PORT: process.env.GATEWAY_PORT ?? 8080,
    PORT_OFFSET: process.env.PORT_OFFSET ?? 0,
  });
  step('Checking PostgreSQL, RabbitMQ and Redis');
  if (!(await ensureInfra(env))) process.exit(1);

  if (!process.env.REPLICAS_SKIP_BUILD) {
    step('Building (Prisma clients, TypeScript, front ends)');
    await run('npm', ['run', 'build'], { env });
  }
  step('Setting up database roles and applying migrations');
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy'], { env });

  step('Starting HAProxy and two replicas of every service');
  let stack;
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping every replica and HAProxy…');
    await stack?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  stack = await startReplicas(env, {
    quiet: process.env.REPLICAS_QUIET === '1',
    onExit: (name, r, code, signal) => {
      console.error(
        `${name} replica ${r + 1} exited unexpectedly (${signal ?? code}); the other replica carries on.`,
      );
    },
  });
  stack.haproxy.on('exit', (code) => {
    if (!stopping) {
      console.error(`HAProxy exited (code ${code}); stopping.`);
      void stop(1);
    }
  });

  const secrets = devSecrets(env);
  console.log(`\n\x1b[1;32m✔ Everything is up, twice.\x1b[0m`);
  console.log(`  Site:        ${stack.url}/`);
  console.log(`  Dashboard:   ${stack.url}/dashboard`);
  console.log(
    `  HAProxy:     ${stack.statsUrl}  (per-replica traffic and health; CSV at ${stack.statsUrl};csv)`,
  );
  for (const s of stack.layout.services)
    console.log(
      `  ${s.name.padEnd(10)}  http://127.0.0.1:${s.lbPort}  →  ${s.replicaPorts.map((p) => `127.0.0.1:${p}`).join(', ')}`,
    );
  console.log(`  Config:      ${stack.configFile}`);
  console.log(`  Admin login: ${secrets.ADMIN_USERNAME} / ${secrets.ADMIN_PASSWORD}`);
  console.log('  Press Ctrl-C to stop.\n');
}

main().catch((err) => {
  console.error(`\n✖ ${err.message}`);
  process.exit(1);
});
