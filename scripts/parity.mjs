#!/usr/bin/env node
// Production parity without Docker: `npm run test:parity` (also a stage of `npm test`, after the end-to-end stage,
// whose build it reuses; `PARITY_BUILD=1` builds first).
//
// Reads docker-compose.yml and starts what `docker compose up --wait` would start, as host processes: the `migrate`
// one-shot and the six services with the command, working directory and environment compose gives them (the image's
// ENV, WORKDIR and CMD from the Dockerfile for compose's build target and arguments, then the service's `environment`,
// interpolated from a .env file generated from .env.example with throwaway secrets, and nothing from the shell), in
// `depends_on` order, each waited for by its own compose healthcheck command; Postgres, RabbitMQ and Redis are the
// ones already running on this machine, on the ports compose publishes them on. Then it runs the journeys that cross
// services through the gateway (test/parity/*.parity.test.ts) and stops everything.
//
// What differs from `docker compose up`, and nothing else:
//   - host names: every URL to a compose service (`http://booking:3001`, `postgres:5432`) points at 127.0.0.1 and
//     the host port of that service's container port (published ports as compose publishes them, others free
//     ports), and PORT, the port a process listens on, is its container port's host port;
//   - isolation from other runs on the same servers: the database (`tyres` → `tyres_parity_<pid>`, created by
//     migrate as in compose), the database roles (`<service>_app` → `parity<pid>_<service>_app`, with
//     DATABASE_ROLE_PREFIX given to the migrator: roles belong to the whole Postgres server), EVENT_PREFIX and
//     REDIS_PREFIX (`parity-<pid>.` / `parity-<pid>:` instead of compose's empty ones);
//   - a process gets PATH and HOME besides, as a container has them (not HOSTNAME and the like);
//   - the code is this checkout's build (dist/ and the root node_modules, dev dependencies included) run by this
//     Node, not the images' production install; the read-only root, dropped capabilities and init are not applied;
//   - the front-end containers run their image's start steps (/docker-entrypoint.d/*.sh: the shell renders its pages
//     with compose's SITE_URL and BUSINESS_*), given /srv/www and /tmp/shell through the step's own
//     SHELL_SOURCE_DIR/SHELL_RENDER_DIR as a mount would, then small Node servers answer as their nginx
//     configuration does (scripts/lib/parity-frontend.mjs), without nginx's cache and security headers and gzip;
//   - healthchecks are polled every 0.3 s (compose: their `interval`), and the journeys start once every service's
//     /readyz also reports its broker and Redis connected, as a real user arrives after start-up;
//   - SMTP_URL in the .env names a local SMTP receiver (smtp-server) whose messages the journeys read.
// Every changed variable is listed in .run/parity-<pid>/environment.json (kept with the logs when the run fails, or
// with PARITY_KEEP=1). Everything it made (database, roles, queues, Redis keys) is removed at the end.
//
//   PARITY_BUILD=1    npm run build first          PARITY_KEEP=1     keep the database and .run/parity-<pid>/
//   PARITY_VERBOSE=1  print the services' output   extra arguments go to jest (e.g. -t reschedule)
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

import { roleNames } from './lib/database-roles.mjs';
import { formatEnvFile, imageOf, parseEnvFile, readCompose } from './lib/parity-compose.mjs';
import { startFrontend } from './lib/parity-frontend.mjs';
import { checkInfra, DEFAULTS, ROOT, run } from './lib/stack.mjs';

const require = createRequire(import.meta.url);
const started = Date.now();
const id = process.pid;
const RUN_DIR = path.join(ROOT, '.run', `parity-${id}`);
const MAIL_DIR = path.join(RUN_DIR, 'mail');
const ISOLATION = {
  database: (name) => `${name}_parity_${id}`,
  rolePrefix: `parity${id}_`,
  eventPrefix: `parity-${id}.`,
  redisPrefix: `parity-${id}:`,
};
const verbose = Boolean(process.env.PARITY_VERBOSE);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const log = (message) => console.log(`parity │ ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// The host: the infra this machine runs, free ports

/** The Postgres, RabbitMQ and Redis of this machine (the same variables as npm start and the e2e run). */
function hostInfra() {
  const urls = Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, process.env[k] || DEFAULTS[k]]));
  const db = new URL(urls.DATABASE_URL);
  const mq = new URL(urls.AMQP_URL);
  const redis = new URL(urls.REDIS_URL);
  for (const [name, u] of [
    ['DATABASE_URL', db],
    ['AMQP_URL', mq],
    ['REDIS_URL', redis],
  ])
    if (!['127.0.0.1', 'localhost'].includes(u.hostname))
      throw new Error(
        `${name} is not on this machine (${u.host}): the parity run maps compose's hosts to loopback.`,
      );
  return {
    urls,
    admin: { user: decodeURIComponent(db.username || 'postgres'), password: decodeURIComponent(db.password) },
    ports: {
      postgres: Number(db.port || 5432),
      rabbitmq: Number(mq.port || 5672),
      redis: Number(redis.port || 6379),
    },
    rabbit: {
      user: decodeURIComponent(mq.username || 'guest'),
      password: decodeURIComponent(mq.password || 'guest'),
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The .env file: .env.example filled in as its instructions say

/**
 * .env.example's keys: those of its "Required" section get throwaway values (a key there this function cannot
 * generate stops the run: the parity run must learn about it), the others keep the example's value; then the
 * settings of this machine and of the run (compose's own variables: ports, infra credentials, SMTP, log level).
 */
function parityEnv({ infra, gatewayPort, smtpPort }) {
  const text = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const example = parseEnvFile(text);
  const required = new Set();
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^# --- (.+?) -*$/.exec(line);
    if (header) section = header[1];
    const key = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (key && section.startsWith('Required')) required.add(key);
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const generators = {
    SESSION_SECRET: () => randomBytes(48).toString('base64url'),
    INTERNAL_JWT_PRIVATE_KEY: () => privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    INTERNAL_JWT_PUBLIC_KEY: () => publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ADMIN_PASSWORD: () => randomBytes(12).toString('base64url'),
    STRIPE_WEBHOOK_SECRET: () => `whsec_${randomBytes(24).toString('hex')}`,
    // The business the shell's pages, invoices and messages show: values of this run, so the journeys can tell
    // them from any default. The site's origin is where this stack answers.
    SITE_URL: () => `http://127.0.0.1:${gatewayPort}`,
    BUSINESS_NAME: () => 'Parity Mobile Tyres',
    BUSINESS_PHONE: () => '08 6111 2233',
    BUSINESS_ABN: randomAbn,
    BUSINESS_EMAIL: () => 'bookings@parity-tyres.com.au',
  };
  const vars = new Map();
  for (const [key, value] of example) {
    if (!required.has(key) || value !== '') vars.set(key, value);
    else if (generators[key]) vars.set(key, generators[key]());
    else if (/_DATABASE_PASSWORD$/.test(key)) vars.set(key, randomBytes(32).toString('hex'));
    else
      throw new Error(
        `.env.example requires ${key}, which the parity run cannot fill in (scripts/parity.mjs)`,
      );
  }
  // This machine and this run (the optional settings .env.example documents).
  vars.set('GATEWAY_PORT', String(gatewayPort));
  vars.set('POSTGRES_PORT', String(infra.ports.postgres));
  if (infra.admin.password) vars.set('POSTGRES_PASSWORD', infra.admin.password);
  vars.set('RABBITMQ_PORT', String(infra.ports.rabbitmq));
  vars.set('RABBITMQ_USER', infra.rabbit.user);
  vars.set('RABBITMQ_PASSWORD', infra.rabbit.password);
  vars.set('REDIS_PORT', String(infra.ports.redis));
  vars.set('LOG_LEVEL', process.env.PARITY_LOG_LEVEL ?? 'warn');
  // A mail server outside compose, like a real provider: the journeys read what it receives.
  vars.set('SMTP_URL', `smtp://127.0.0.1:${smtpPort}`);
  vars.set('EMAIL_FROM', 'Mobile Tyres Parity <invoices@parity.test>');
  // The journeys wait for their emails whatever the time in Perth (quiet hours have their own tests).
  vars.set('QUIET_HOURS', 'off');
  return vars;
}

/** An ABN with valid check digits ("51 824 753 556" form): first digit minus 1, weighted sum divisible by 89. */
function randomAbn() {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const digits = [1 + (randomBytes(1)[0] % 9), ...[...randomBytes(10)].map((b) => b % 10)];
    const sum = digits.reduce((acc, d, i) => acc + (i === 0 ? d - 1 : d) * weights[i], 0);
    if (sum % 89 === 0) {
      const a = digits.join('');
      return `${a.slice(0, 2)} ${a.slice(2, 5)} ${a.slice(5, 8)} ${a.slice(8)}`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// From compose's view to this machine's

/** Which container ports of which services are used: a service's PORT, URLs to it, its healthcheck, its ports. */
function containerPorts(services, images) {
  const used = new Map(Object.keys(services).map((n) => [n, new Set()]));
  const add = (name, port) => used.get(name)?.add(Number(port));
  for (const s of Object.values(services)) {
    const env = { ...images[s.name]?.env, ...s.environment };
    if (env.PORT) add(s.name, env.PORT);
    for (const value of Object.values(env))
      for (const m of String(value).matchAll(/\/\/(?:[^@/\s]*@)?([A-Za-z0-9][A-Za-z0-9_.-]*):(\d+)/g))
        add(m[1], m[2]);
    for (const arg of s.healthcheck ?? [])
      for (const m of arg.matchAll(/(?:127\.0\.0\.1|localhost):(\d+)/g)) add(s.name, m[1]);
    for (const p of s.ports) add(s.name, p.container);
  }
  return used;
}

/** "<service>:<container port>" of every URL in the services' environments. */
function referencedPorts(services, images) {
  const keys = new Set();
  for (const s of Object.values(services))
    for (const value of Object.values({ ...images[s.name]?.env, ...s.environment }))
      for (const m of String(value).matchAll(/\/\/(?:[^@/\s]*@)?([A-Za-z0-9][A-Za-z0-9_.-]*):(\d+)/g))
        keys.add(`${m[1]}:${m[2]}`);
  return keys;
}

async function hostPorts(services, images) {
  const map = new Map();
  for (const [name, ports] of containerPorts(services, images))
    for (const port of ports) {
      const published = services[name].ports.find((p) => p.container === port);
      map.set(`${name}:${port}`, published ? published.host : await freePort());
    }
  return map;
}

/** The environment of one process on this machine, and the list of what differs from compose's. */
function hostEnvironment(service, image, ports, knownServices) {
  const compose = { ...image.env, ...service.environment };
  const hostPort = (name, port) => {
    const p = ports.get(`${name}:${port}`);
    if (p === undefined) throw new Error(`no host port for ${name}:${port}`);
    return p;
  };
  const mapUrls = (value) =>
    value.replace(/(\/\/(?:[^@/\s]*@)?)([A-Za-z0-9][A-Za-z0-9_.-]*):(\d+)/g, (all, pre, host, port) =>
      ports.has(`${host}:${port}`) ? `${pre}127.0.0.1:${hostPort(host, port)}` : all,
    );
  const isolateDatabase = (value) => {
    if (!/^postgres(ql)?:\/\//.test(value)) return value;
    const url = new URL(value);
    url.pathname = `/${ISOLATION.database(url.pathname.slice(1))}`;
    const role = knownServices.find((s) => roleNames(s).app === decodeURIComponent(url.username));
    if (role) url.username = roleNames(role, ISOLATION.rolePrefix).app;
    return url.toString();
  };
  const env = {};
  for (const [key, value] of Object.entries(compose)) env[key] = isolateDatabase(mapUrls(String(value)));
  if (env.PORT) env.PORT = String(hostPort(service.name, env.PORT));
  if ('EVENT_PREFIX' in env) env.EVENT_PREFIX = ISOLATION.eventPrefix;
  if ('REDIS_PREFIX' in env) env.REDIS_PREFIX = ISOLATION.redisPrefix;
  // The migrator (it has the services' URLs) creates the roles under the run's prefix.
  if (Object.keys(env).some((k) => /^[A-Z]+_DATABASE_URL$/.test(k)))
    env.DATABASE_ROLE_PREFIX = ISOLATION.rolePrefix;
  const changes = Object.keys(env)
    .filter((k) => env[k] !== compose[k])
    .map((k) => ({ variable: k, compose: compose[k] ?? null, parity: env[k] }));
  return { env, changes };
}

/** /app/... (the image's layout) → the repository; `node` → this Node. */
const hostPath = (p) => (p === '/app' || p.startsWith('/app/') ? path.join(ROOT, p.slice(4)) : p);
const hostArgv = (argv) => argv.map((a, i) => (i === 0 && a === 'node' ? process.execPath : hostPath(a)));

// ---------------------------------------------------------------------------------------------------------------
// Processes

const processes = new Map(); // name -> { child, exit: Promise<number>, logFile }
const servers = []; // front ends and the SMTP receiver
let stopping = false;
let failRun;
const runFailed = new Promise((_, reject) => {
  failRun = reject;
});
runFailed.catch(() => undefined);

function startProcess(name, argv, { env, cwd, oneShot }) {
  const logFile = path.join(RUN_DIR, `${name}.log`);
  const out = fs.createWriteStream(logFile);
  const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk) => {
      out.write(chunk);
      if (verbose)
        for (const line of String(chunk).trimEnd().split('\n')) console.log(`${name.padEnd(18)}│ ${line}`);
    });
  const exit = new Promise((resolve) => {
    child.on('error', (err) => {
      out.write(`spawn failed: ${err.message}\n`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  void exit.then((code) => {
    out.end();
    if (!stopping && !oneShot)
      failRun(new Error(`${name} exited (${code}) while the stack was running: ${logFile}`));
  });
  processes.set(name, { child, exit, logFile });
}

/** A start step of a container (its output appended to the container's log); resolves to its exit code. */
function runStep(name, argv, env) {
  const out = fs.openSync(path.join(RUN_DIR, `${name}.log`), 'a');
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: RUN_DIR, env, stdio: ['ignore', out, out] });
    child.on('error', () => resolve(127));
    child.on('exit', (code) => resolve(code ?? 1));
  }).finally(() => fs.closeSync(out));
}

/**
 * Where a front-end image's folders are on this machine: /srv/www (what the image copies there from the build:
 * frontends/<name>/dist) and the shell's /tmp/shell (its tmpfs: a folder of the run).
 */
function frontendDirs(name, image) {
  const copy = image.copies.find((c) => c.dest === '/srv/www');
  if (!copy) throw new Error(`${name}: the image copies nothing to /srv/www`);
  return { root: hostPath(copy.src), renderDir: path.join(RUN_DIR, name, 'tmp', 'shell') };
}

/** Runs the service's compose healthcheck (its container port mapped to the host's) until it succeeds. */
async function waitHealthy(service, ports, timeoutMs = 120_000) {
  const [kind, ...rest] = service.healthcheck;
  const local = (arg) =>
    arg.replace(/(127\.0\.0\.1|localhost):(\d+)/g, (all, _h, port) =>
      ports.has(`${service.name}:${port}`) ? `127.0.0.1:${ports.get(`${service.name}:${port}`)}` : all,
    );
  const argv = kind === 'CMD-SHELL' ? ['sh', '-c', local(rest.join(' '))] : hostArgv(rest.map(local));
  if (kind !== 'CMD' && kind !== 'CMD-SHELL')
    throw new Error(`${service.name}: healthcheck ${kind} not supported`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = await new Promise((resolve) => {
      const check = spawn(argv[0], argv.slice(1), { stdio: 'ignore', timeout: 5000 });
      check.on('error', (err) => resolve(err.code === 'ENOENT' ? 'missing' : 127));
      check.on('exit', (c) => resolve(c ?? 1));
    });
    if (code === 0) return;
    if (code === 'missing')
      throw new Error(
        `${service.name}: its healthcheck runs ${argv[0]}, which is not installed on this machine`,
      );
    if (Date.now() > deadline) throw new Error(`${service.name} not healthy after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function tcpOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 2000 });
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

/**
 * `docker compose up --wait`: each service once what it depends on is started / healthy / completed successfully;
 * infra (image-only services) is this machine's, healthy when its published port answers.
 */
async function composeUp({ services, images, ports, environments }) {
  const referenced = referencedPorts(services, images);
  const oneShots = new Set(
    Object.values(services).flatMap((s) =>
      Object.entries(s.dependsOn)
        .filter(([, c]) => c === 'service_completed_successfully')
        .map(([n]) => n),
    ),
  );
  const up = new Map();
  const healthy = new Map();
  const completed = new Map();
  const bringUp = (name) => {
    if (up.has(name)) return up.get(name);
    const service = services[name];
    if (!service) throw new Error(`depends_on names an unknown service ${name}`);
    const promise = (async () => {
      // A failure elsewhere stopped the run: start nothing more (it would outlive the clean-up).
      const stillUp = () => {
        if (stopping) throw new Error(`${name} not started: the run is stopping`);
      };
      await Promise.all(
        Object.entries(service.dependsOn).map(async ([dep, condition]) => {
          await bringUp(dep);
          if (condition === 'service_healthy') await isHealthy(dep);
          else if (condition === 'service_completed_successfully') await hasCompleted(dep);
        }),
      );
      stillUp();
      const t = Date.now();
      if (!service.build) {
        // This machine's server: the ports the stack's URLs use must answer (not, say, a management UI's).
        for (const [key, port] of ports)
          if (key.startsWith(`${name}:`) && referenced.has(key) && !(await tcpOpen(port)))
            throw new Error(`${name} is not running on 127.0.0.1:${port}`);
      } else if (service.build.target === 'frontend') {
        const { root, renderDir } = frontendDirs(name, images[name]);
        const shell = service.build.args.FRONTEND === 'shell';
        if (!fs.existsSync(path.join(root, shell ? 'index.html' : 'remoteEntry.js')))
          throw new Error(`${name}: ${path.relative(ROOT, root)} is not built (npm run build:frontends)`);
        // The image's start steps (nginx's entrypoint runs /docker-entrypoint.d/*.sh in order and does not start
        // nginx when one fails): the shell renders its pages with compose's environment.
        const steps = images[name].copies
          .filter((c) => /^\/docker-entrypoint\.d\/[^/]+\.sh$/.test(c.dest))
          .sort((a, b) => a.dest.localeCompare(b.dest));
        for (const step of steps) {
          stillUp();
          const code = await runStep(name, ['sh', path.join(ROOT, step.src)], environments[name].env);
          if (code !== 0)
            throw new Error(
              `${name}: its start step ${path.basename(step.dest)} failed (${code}), so nginx would not start: ` +
                path.join(RUN_DIR, `${name}.log`),
            );
        }
        // The port its nginx listens on: the one compose's healthcheck and the gateway's URL use.
        const own = [...ports.keys()].filter((k) => k.startsWith(`${name}:`));
        if (own.length !== 1)
          throw new Error(`${name}: expected one container port, found ${own.join(', ') || 'none'}`);
        stillUp();
        servers.push(
          await startFrontend({
            name: service.build.args.FRONTEND,
            root,
            renderDir,
            port: ports.get(own[0]),
          }),
        );
      } else {
        const image = images[name];
        const argv = hostArgv(service.command ?? image.cmd);
        const script = argv.find((a, i) => i > 0 && /\.m?js$/.test(a));
        const cwd = hostPath(image.workdir);
        if (script && !fs.existsSync(path.resolve(cwd, script)))
          throw new Error(
            `${name}: ${path.relative(ROOT, path.resolve(cwd, script))} is missing (npx tsc -b)`,
          );
        stillUp();
        startProcess(name, argv, { env: environments[name].env, cwd, oneShot: oneShots.has(name) });
      }
      if (verbose) log(`${name} started (${seconds(t)})`);
    })();
    up.set(name, promise);
    return promise;
  };
  const isHealthy = (name) => {
    if (!healthy.has(name)) {
      const service = services[name];
      healthy.set(
        name,
        bringUp(name).then(() =>
          service.build && service.healthcheck ? waitHealthy(service, ports) : undefined,
        ),
      );
    }
    return healthy.get(name);
  };
  const hasCompleted = (name) => {
    if (!completed.has(name))
      completed.set(
        name,
        bringUp(name).then(async () => {
          const code = await processes.get(name).exit;
          if (code !== 0) throw new Error(`${name} exited with ${code}: ${processes.get(name).logFile}`);
        }),
      );
    return completed.get(name);
  };
  // --wait: every service healthy (or, for a one-shot, completed).
  await Promise.race([
    runFailed,
    Promise.all(Object.keys(services).map((n) => (oneShots.has(n) ? hasCompleted(n) : isHealthy(n)))),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// SMTP receiver (smtp-server, a dev dependency): every message as JSON in .run/parity-<pid>/mail/

async function startSmtp() {
  const { SMTPServer } = require('smtp-server');
  fs.mkdirSync(MAIL_DIR, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        fs.writeFileSync(
          path.join(MAIL_DIR, `${String(++n).padStart(4, '0')}.json`),
          JSON.stringify(message),
        );
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return server.server.address().port;
}

// ---------------------------------------------------------------------------------------------------------------
// Clean-up of everything the run made on the shared servers

/** One clean-up step, bounded in time and never stopping the others (a broker that hangs must not hang the run). */
async function step(what, fn, timeoutMs = 20_000) {
  let timer;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    console.error(`parity │ clean-up of ${what} failed: ${err.message}`);
  } finally {
    clearTimeout(timer);
  }
}

async function cleanUp(infra, databases, serviceNames) {
  await step('the database and roles', async () => {
    const admin = new URL(infra.urls.DATABASE_URL);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      for (const db of databases) await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      for (const s of serviceNames) {
        const { owner, app } = roleNames(s, ISOLATION.rolePrefix);
        for (const role of [app, owner]) await client.query(`DROP ROLE IF EXISTS "${role}"`);
      }
    } finally {
      await client.end();
    }
  });
  await step('the queues and exchanges', async () => {
    const amqp = require('amqplib');
    const { resolveRetryPolicy } = require(path.join(ROOT, 'packages', 'events', 'dist', 'index.js'));
    const connection = await amqp.connect(infra.urls.AMQP_URL, { timeout: 5000 });
    try {
      const ch = await connection.createChannel();
      for (const s of serviceNames)
        for (const q of [s, `${s}.dlq`, ...resolveRetryPolicy().delaysMs.map((d) => `${s}.retry.${d}ms`)])
          await ch.deleteQueue(`${ISOLATION.eventPrefix}${q}`);
      for (const e of ['tyres.events', 'tyres.dlx']) await ch.deleteExchange(`${ISOLATION.eventPrefix}${e}`);
      await ch.close();
    } finally {
      await connection.close();
    }
  });
  await step('the Redis keys', async () => {
    const { Redis } = require('ioredis');
    const redis = new Redis(infra.urls.REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 5000,
      maxRetriesPerRequest: 2,
    });
    redis.on('error', () => undefined);
    await redis.connect();
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${ISOLATION.redisPrefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  });
}

async function stopAll() {
  stopping = true;
  // The gateway first (the entry), then the rest, like `docker compose down`.
  const order = [...processes.keys()].sort((a, b) => (a === 'gateway' ? -1 : b === 'gateway' ? 1 : 0));
  await Promise.all(
    order.map(async (name) => {
      const { child, exit } = processes.get(name);
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.kill('SIGTERM');
        await exit;
        clearTimeout(timer);
      }
    }),
  );
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(() => resolve()))));
}

function tail(file, lines = 25) {
  if (!fs.existsSync(file)) return '';
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  fs.mkdirSync(RUN_DIR, { recursive: true });
  const infra = hostInfra();
  if (!(await checkInfra(infra.urls))) process.exit(1);
  if (process.env.PARITY_BUILD) await run('npm', ['run', 'build']);

  const gatewayPort = await freePort();
  const smtpPort = await startSmtp();
  const vars = parityEnv({ infra, gatewayPort, smtpPort });
  fs.writeFileSync(
    path.join(RUN_DIR, 'parity.env'),
    formatEnvFile(vars, [`.env of the parity run ${id} (throwaway values)`]),
    {
      mode: 0o600,
    },
  );
  const { services, missing } = readCompose(path.join(ROOT, 'docker-compose.yml'), vars);
  if (missing.length)
    log(`compose variables without a value (empty, as compose would warn): ${missing.join(', ')}`);
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const images = Object.fromEntries(
    Object.values(services)
      .filter((s) => s.build)
      .map((s) => [s.name, imageOf(dockerfile, s.build.target, s.build.args)]),
  );
  if (services.gateway?.ports[0]?.host !== gatewayPort)
    throw new Error('the gateway is not published on GATEWAY_PORT');
  const ports = await hostPorts(services, images);
  const serviceNames = [
    ...new Set(
      Object.values(services).flatMap((s) => (s.build?.target === 'service' ? [s.build.args.SERVICE] : [])),
    ),
  ];
  const environments = Object.fromEntries(
    Object.values(services)
      .filter((s) => s.build)
      .map((s) => {
        const { env, changes } = hostEnvironment(s, images[s.name], ports, serviceNames);
        if (s.build.target === 'frontend') {
          // The start step's folders (its documented overrides of /srv/www and /tmp/shell), as a mount would.
          const { root, renderDir } = frontendDirs(s.name, images[s.name]);
          Object.assign(env, { SHELL_SOURCE_DIR: root, SHELL_RENDER_DIR: renderDir });
          changes.push(
            { variable: 'SHELL_SOURCE_DIR', compose: null, parity: root },
            { variable: 'SHELL_RENDER_DIR', compose: null, parity: renderDir },
          );
        }
        return [s.name, { env: { PATH: process.env.PATH, HOME: RUN_DIR, ...env }, changes }];
      }),
  );
  const databases = [
    ...new Set(
      Object.values(environments).flatMap(({ env }) =>
        Object.values(env)
          .filter((v) => /^postgres(ql)?:\/\//.test(v))
          .map((v) => new URL(v).pathname.slice(1)),
      ),
    ),
  ];
  fs.writeFileSync(
    path.join(RUN_DIR, 'environment.json'),
    JSON.stringify(
      {
        ports: Object.fromEntries(ports),
        changes: Object.fromEntries(Object.entries(environments).map(([n, e]) => [n, e.changes])),
      },
      null,
      2,
    ),
  );
  log(
    `compose's environment for ${Object.keys(environments).join(', ')}; changed only: host:port → 127.0.0.1, PORT, ` +
      `database ${databases.join(', ')}, roles ${ISOLATION.rolePrefix}*, prefixes ${ISOLATION.eventPrefix} / ${ISOLATION.redisPrefix} ` +
      `(${path.relative(ROOT, path.join(RUN_DIR, 'environment.json'))})`,
  );

  let code = 1;
  let ok = false;
  const upStarted = Date.now();
  try {
    await composeUp({ services, images, ports, environments });
    log(
      `docker compose up --wait equivalent: ${Object.keys(services).length} services up in ${seconds(upStarted)}`,
    );
    // Healthy = ready to serve its own requests; a user arrives once the broker and Redis are connected too.
    await settle(services, environments);
    const jestStarted = Date.now();
    code = await Promise.race([
      runFailed,
      new Promise((resolve) => {
        const child = spawn(
          'npx',
          [
            'jest',
            '--config',
            'test/parity/jest.config.js',
            '--runInBand',
            '--json',
            `--outputFile=${path.join(ROOT, '.run', 'jest-parity.json')}`,
            ...process.argv.slice(2),
          ],
          {
            cwd: ROOT,
            stdio: 'inherit',
            env: {
              ...process.env,
              PARITY_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
              PARITY_ADMIN_USERNAME: vars.get('ADMIN_USERNAME'),
              PARITY_ADMIN_PASSWORD: vars.get('ADMIN_PASSWORD'),
              PARITY_MAIL_DIR: MAIL_DIR,
              PARITY_BUSINESS: JSON.stringify(
                Object.fromEntries(
                  ['SITE_URL', 'BUSINESS_NAME', 'BUSINESS_PHONE', 'BUSINESS_ABN', 'BUSINESS_EMAIL'].map(
                    (k) => [k, vars.get(k)],
                  ),
                ),
              ),
            },
          },
        );
        child.on('exit', (c) => resolve(c ?? 1));
      }),
    ]);
    log(`journeys ${code === 0 ? 'passed' : 'FAILED'} in ${seconds(jestStarted)}`);
    ok = code === 0;
  } catch (err) {
    console.error(`✖ parity: ${err.message}`);
  } finally {
    await stopAll();
    if (!ok)
      for (const file of fs.readdirSync(RUN_DIR).filter((f) => f.endsWith('.log')))
        console.error(`\n── ${file} ──\n${tail(path.join(RUN_DIR, file))}`);
    if (!process.env.PARITY_KEEP) {
      await cleanUp(infra, databases, serviceNames);
      if (ok) fs.rmSync(RUN_DIR, { recursive: true, force: true });
    }
  }
  log(
    `${ok ? 'passed' : 'failed'} in ${seconds(started)}${ok ? '' : ` (logs: ${path.relative(ROOT, RUN_DIR)})`}`,
  );
  process.exit(ok ? 0 : code || 1);
}

/** Waits (up to 30 s) until every service's /readyz says "ready": its broker and Redis connected, not only healthy. */
async function settle(services, environments) {
  const deadline = Date.now() + 30_000;
  for (const name of Object.keys(environments)) {
    const port = environments[name].env.PORT;
    if (!port || !services[name].healthcheck) continue;
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.json())
        .then(
          (b) => b.status,
          () => 'unreachable',
        );
      if (status === 'ready') break;
      if (Date.now() > deadline) {
        log(`${name} still ${status} after 30 s; running the journeys anyway`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    failRun(new Error(`interrupted (${signal})`));
  });

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
