// Shared by `npm start` and the end-to-end test run: infra checks, dev secrets, and starting every service.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { appDatabaseUrl, databasePasswordVariable, databaseUrlVariable, rolePrefix } from './database-roles.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const SERVICES = [
  { name: 'booking', port: 3001 },
  { name: 'jobs', port: 3002 },
  { name: 'billing', port: 3003 },
  { name: 'reporting', port: 3004 },
  { name: 'notify', port: 3005 },
  { name: 'gateway', port: 8080 },
];

export const DEFAULTS = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/tyres',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

function tcpReachable(urlString, timeoutMs = 2000) {
  const url = new URL(urlString);
  const defaultPorts = { 'postgresql:': 5432, 'postgres:': 5432, 'amqp:': 5672, 'amqps:': 5671, 'redis:': 6379 };
  const port = Number(url.port || defaultPorts[url.protocol]);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Names each unreachable dependency and how to start it; returns false if any is missing. */
export async function checkInfra(env) {
  const deps = [
    {
      name: 'PostgreSQL',
      variable: 'DATABASE_URL',
      url: env.DATABASE_URL,
      local: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    },
    { name: 'RabbitMQ', variable: 'AMQP_URL', url: env.AMQP_URL, local: 'rabbitmq-server -detached' },
    {
      name: 'Redis',
      variable: 'REDIS_URL',
      url: env.REDIS_URL,
      local: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --maxmemory-policy noeviction',
    },
  ];
  const results = await Promise.all(deps.map(async (d) => ({ ...d, ok: await tcpReachable(d.url) })));
  const missing = results.filter((r) => !r.ok);
  for (const m of missing) {
    const where = new URL(m.url);
    console.error(`✖ ${m.name} is not reachable at ${where.host} (${m.variable}).`);
    console.error(`    start it locally:   ${m.local}`);
  }
  if (missing.length) {
    console.error('    or with Docker:     docker compose up -d postgres rabbitmq redis');
    console.error('    or point the variables above at running servers.');
  }
  return missing.length === 0;
}

/** Generators of every local secret; a key missing from an older .run/dev-secrets.json is added on the next start. */
function secretGenerators() {
  let keyPair;
  const pair = () => (keyPair ??= generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  return {
    SESSION_SECRET: () => randomBytes(48).toString('base64url'),
    INTERNAL_JWT_PRIVATE_KEY: () => pair().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    INTERNAL_JWT_PUBLIC_KEY: () => pair().publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ADMIN_USERNAME: () => 'admin',
    ADMIN_PASSWORD: () => randomBytes(9).toString('base64url'),
    // Each service's database role (scripts/lib/database-roles.mjs); hex, so it needs no escaping in a URL.
    ...Object.fromEntries(SERVICES.map((s) => [databasePasswordVariable(s.name), () => randomBytes(24).toString('hex')])),
  };
}

/**
 * Local-only secrets, generated once into .run/ (git-ignored): the session secret, the gateway's ES256 key pair
 * for forwarded identities, the first admin's password so `npm start` can print the login, and the password of each
 * service's database role.
 */
export function devSecrets(env) {
  const dir = path.join(ROOT, '.run');
  const file = path.join(dir, 'dev-secrets.json');
  const stored = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const generators = secretGenerators();
  const missing = Object.keys(generators).filter((key) => !(key in stored));
  // The key pair is generated as one: never keep half of an old pair.
  if (missing.some((key) => key.startsWith('INTERNAL_JWT_'))) {
    delete stored.INTERNAL_JWT_PRIVATE_KEY;
    delete stored.INTERNAL_JWT_PUBLIC_KEY;
  }
  if (missing.length) {
    for (const key of Object.keys(generators)) if (!(key in stored)) stored[key] = generators[key]();
    fs.mkdirSync(dir, { recursive: true });
    // Written to a temporary file and renamed: a concurrent start never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  // Values from the real environment win over the generated ones.
  return Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, env[k] || v]));
}

/**
 * Each service's own DATABASE_URL (its app role on the stack's database), as <SERVICE>_DATABASE_URL: the migrator
 * sets each role's password from it (scripts/db-migrate.mjs) and startServices hands it to the service.
 */
function serviceDatabaseUrls(env, secrets) {
  const prefix = rolePrefix(env);
  return Object.fromEntries(
    SERVICES.map((s) => [
      databaseUrlVariable(s.name),
      appDatabaseUrl(env.DATABASE_URL, s.name, secrets[databasePasswordVariable(s.name)], prefix),
    ]),
  );
}

/** Environment for every service process of a local stack. */
export function stackEnv(base, overrides = {}) {
  const env = { ...process.env, ...DEFAULTS, ...pick(base, Object.keys(DEFAULTS)), ...overrides };
  const secrets = devSecrets(env);
  const gatewayPort = Number(overrides.GATEWAY_PORT ?? 8080);
  const portOffset = Number(overrides.PORT_OFFSET ?? 0);
  const urls = Object.fromEntries(
    SERVICES.filter((s) => s.name !== 'gateway').map((s) => [`${s.name.toUpperCase()}_URL`, `http://127.0.0.1:${s.port + portOffset}`]),
  );
  return {
    ...env,
    ...secrets,
    ...urls,
    // booking → gateway (the roster's pull of the technicians, deploy/service-calls.json).
    GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
    ...serviceDatabaseUrls(env, secrets),
    NODE_ENV: env.NODE_ENV ?? 'development',
    COOKIE_SECURE: 'false',
    STATIC_DIR: ROOT,
    GATEWAY_PORT: String(gatewayPort),
    PORT_OFFSET: String(portOffset),
  };
}

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => obj[k]).map((k) => [k, obj[k]]));
}

export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code})`)),
    );
  });
}

const COLORS = [36, 33, 35, 32, 34, 31];
/** Lines of a quiet service's output kept for a start-up failure report. */
const RECENT_LINES = 40;

function reportRecent(p) {
  if (!p.recent?.length) return;
  console.error(`last ${p.recent.length} lines of ${p.name}'s output:`);
  for (const line of p.recent) console.error(p.tag + line);
}

/**
 * A service's environment: DATABASE_URL is its own role's (<SERVICE>_DATABASE_URL, made by stackEnv), and neither
 * the administrator's URL nor another service's credentials reach it. Without <SERVICE>_DATABASE_URL (an environment
 * not made by stackEnv) DATABASE_URL is passed as given.
 */
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

/**
 * Starts each service's compiled main.js with its port; output is prefixed with the service name.
 * SERVICE_NODE_ARGS adds node flags to every service, e.g. to profile a benchmark:
 *   SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench:booking
 */
export function startServices(env, { quiet = false, only } = {}) {
  const offset = Number(env.PORT_OFFSET ?? 0);
  const nodeArgs = (env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return SERVICES.filter((svc) => !only || only.includes(svc.name)).map((svc, i) => {
    const port = svc.name === 'gateway' ? Number(env.GATEWAY_PORT ?? 8080) : svc.port + offset;
    const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'services', svc.name, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...serviceEnv(env, svc.name), PORT: String(port), SERVICE_NAME: svc.name },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tag = `\x1b[${COLORS[i % COLORS.length]}m${svc.name.padEnd(9)}\x1b[0m│ `;
    // A quiet service's last lines are kept so a failed start-up can say why (waitForHealthy prints them).
    const recent = [];
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream.on('data', (chunk) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop();
        if (quiet) {
          recent.push(...lines);
          recent.splice(0, Math.max(0, recent.length - RECENT_LINES));
          return;
        }
        for (const line of lines) process.stdout.write(tag + line + '\n');
      });
    }
    return { ...svc, port, child, recent, tag };
  });
}

export async function waitForHealthy(procs, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (const p of procs) {
    for (;;) {
      if (p.child.exitCode !== null) {
        reportRecent(p);
        throw new Error(`${p.name} exited with code ${p.child.exitCode} during start-up`);
      }
      try {
        // Start-up waits for every check, dependencies included (broker connected, queues bound), so nothing
        // published right after start is missed; in production readiness ignores dependencies (issue 15).
        const res = await fetch(`http://127.0.0.1:${p.port}/readyz`);
        if (res.ok && (await res.json().catch(() => ({}))).status === 'ready') break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        reportRecent(p);
        throw new Error(`${p.name} did not become ready on port ${p.port}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export async function stopServices(procs, timeoutMs = 15_000) {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise((resolve) => {
          if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
          const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
          p.child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
}
