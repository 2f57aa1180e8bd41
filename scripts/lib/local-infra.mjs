// `npm start` on a newcomer's laptop: PostgreSQL, RabbitMQ or Redis that is not reachable, where its URL points at
// this machine and Docker is available, is started from docker-compose.yml (only the missing ones, waiting for their
// healthchecks). Whatever is still missing afterwards, or everything without Docker, is reported by checkInfra as
// before: what to install or start, and the variable to point elsewhere.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

import { checkInfra, ROOT } from './stack.mjs';

/** The infra services of docker-compose.yml, the variable that locates each, and how compose is told its port. */
export const INFRA = [
  {
    service: 'postgres',
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    defaultPort: 5432,
    // docker-compose.yml publishes 127.0.0.1:${POSTGRES_PORT:-5432}; user postgres, database tyres.
    composeEnv: (url) => ({
      POSTGRES_PORT: url.port || '5432',
      ...(url.password ? { POSTGRES_PASSWORD: decode(url.password) } : {}),
    }),
  },
  {
    service: 'rabbitmq',
    name: 'RabbitMQ',
    variable: 'AMQP_URL',
    defaultPort: 5672,
    composeEnv: (url) => ({
      RABBITMQ_PORT: url.port || '5672',
      ...(url.username ? { RABBITMQ_USER: decode(url.username) } : {}),
      ...(url.password ? { RABBITMQ_PASSWORD: decode(url.password) } : {}),
    }),
  },
  {
    service: 'redis',
    name: 'Redis',
    variable: 'REDIS_URL',
    defaultPort: 6379,
    composeEnv: (url) => ({ REDIS_PORT: url.port || '6379' }),
  },
];

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const decode = (s) => decodeURIComponent(s);

function reachable(urlString, defaultPort, timeoutMs = 2000) {
  const url = new URL(urlString);
  return new Promise((resolve) => {
    const socket = net.connect({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || defaultPort),
    });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Runs a command; resolves to its exit code (127 when it cannot be started, e.g. not on PATH). */
function exec(cmd, args, { env, inherit = false, timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: inherit ? 'inherit' : 'ignore' });
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
    child.once('error', () => resolve(127));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

const list = (names) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];

/**
 * Makes sure the stack's infra is reachable, starting what is missing locally with Docker. Returns false (after
 * checkInfra has said what to do) when something is still missing.
 */
export async function ensureInfra(env) {
  const status = await Promise.all(
    INFRA.map(async (i) => ({ ...i, ok: await reachable(env[i.variable], i.defaultPort) })),
  );
  const missing = status.filter((i) => !i.ok);
  // Only a server this machine is meant to run can come from docker-compose.yml; a remote one is someone else's.
  const startable = missing.filter((i) => LOOPBACK.has(new URL(env[i.variable]).hostname));
  if (startable.length > 0) {
    const services = startable.map((i) => i.service);
    const names = list(startable.map((i) => i.name));
    const are = startable.length > 1 ? 'are' : 'is';
    const daemon = await exec('docker', ['info'], { env, timeoutMs: 15_000 });
    if (daemon === 127) {
      // No Docker: checkInfra below says what to install, as it always has.
    } else if (daemon !== 0) {
      console.error(
        `✖ ${names} ${are} not running here, and Docker is installed but not running: start Docker, then npm start again.`,
      );
    } else if ((await exec('docker', ['compose', 'version'], { env, timeoutMs: 15_000 })) !== 0) {
      console.error(
        `✖ ${names} ${are} not running here, and this Docker has no "docker compose" (Compose v2): install it, or:`,
      );
    } else {
      const args = [
        'compose',
        '-f',
        path.join(ROOT, 'docker-compose.yml'),
        'up',
        '-d',
        '--wait',
        ...services,
      ];
      console.log(
        `${names} ${are} not running here: starting ${startable.length > 1 ? 'them' : 'it'} with Docker`,
      );
      console.log(`    docker ${['compose', 'up', '-d', '--wait', ...services].join(' ')}`);
      const composeEnv = Object.assign({}, ...startable.map((i) => i.composeEnv(new URL(env[i.variable]))));
      const code = await exec('docker', args, { env: { ...env, ...composeEnv }, inherit: true });
      if (code === 0)
        console.log(
          `✔ ${names} started in Docker (data in Docker volumes; stop with: docker compose stop ${services.join(' ')})`,
        );
      else console.error(`✖ docker compose up exited with ${code}: see its output above.`);
    }
  }
  return checkInfra(env);
}
