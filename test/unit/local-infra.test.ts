/**
 * `npm start` on a machine without PostgreSQL, RabbitMQ or Redis (scripts/lib/local-infra.mjs): which
 * `docker compose` command runs for which missing services, and what is said without Docker.
 *
 * The real code runs (in a child node process: it is an ES module): real TCP probes against ports this test opens
 * or leaves closed, and a real `docker` lookup on PATH, where this test puts a fake `docker`. The fake records
 * every call with the environment compose would read, answers `docker info` / `docker compose version` as told,
 * and on `compose up` opens the published ports itself (as the containers would), so the stack's checkInfra sees
 * them afterwards.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const LOCAL_INFRA = path.join(ROOT, 'scripts', 'lib', 'local-infra.mjs');

/** The fake `docker`: logs each call as a JSON line, fails `info`/`up` on request, listens on compose's ports. */
const FAKE_DOCKER = `#!${process.execPath}
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const args = process.argv.slice(2);
const env = process.env;
const ports = { postgres: env.POSTGRES_PORT || '5432', rabbitmq: env.RABBITMQ_PORT || '5672', redis: env.REDIS_PORT || '6379' };
fs.appendFileSync(env.FAKE_DOCKER_LOG, JSON.stringify({
  args,
  env: Object.fromEntries(Object.entries(env).filter(([k]) => /^(POSTGRES_(PORT|PASSWORD)|RABBITMQ_(PORT|USER|PASSWORD)|REDIS_PORT)$/.test(k))),
}) + '\\n');
if (args[0] === 'info') process.exit(Number(env.FAKE_DOCKER_INFO_EXIT || 0));
if (args[0] === 'compose' && args[1] === 'version') process.exit(0);
const up = args[0] === 'compose' && args.includes('up');
if (!up) process.exit(2);
if (env.FAKE_DOCKER_UP_EXIT) process.exit(Number(env.FAKE_DOCKER_UP_EXIT));
const services = args.slice(args.indexOf('--wait') + 1);
let pending = services.length;
for (const s of services) {
  // A detached listener per "container", gone after 30 s at the latest; the test ends it sooner by its pid.
  const child = spawn(process.execPath, ['-e', \`
    const server = require('node:net').createServer((c) => c.destroy());
    server.listen(\${ports[s]}, '127.0.0.1', () => process.stdout.write('listening'));
    setTimeout(() => process.exit(0), 30000);\`], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  fs.appendFileSync(env.FAKE_DOCKER_PIDS, child.pid + '\\n');
  child.stdout.once('data', () => {
    child.stdout.destroy();
    child.unref();
    if (--pending === 0) process.exit(0);
  });
}
`;

interface Run {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Every docker call: its arguments and the variables of docker-compose.yml's infra it saw (ports, credentials). */
  docker: { args: string[]; env: Record<string, string> }[];
}

let dir: string;
let running: net.Server[];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'local-infra-'));
  running = [];
});

afterEach(() => {
  const pids = path.join(dir, 'pids');
  for (const pid of existsSync(pids) ? readFileSync(pids, 'utf8').split('\n').filter(Boolean) : []) {
    try {
      process.kill(Number(pid));
    } catch {
      // already gone
    }
  }
  for (const s of running) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A port with a server on it (infra that is running). */
async function listening(): Promise<number> {
  const server = net.createServer((c) => c.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on (infra that is missing). */
async function closed(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** npm start's infra step, with the given URLs, and a fake docker on PATH unless `docker: false`. */
function ensureInfra(
  urls: { DATABASE_URL: string; AMQP_URL: string; REDIS_URL: string },
  options: { docker?: boolean; infoExit?: number; upExit?: number } = {},
): Run {
  const bin = path.join(dir, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  if (options.docker !== false) {
    writeFileSync(path.join(bin, 'docker'), FAKE_DOCKER);
    chmodSync(path.join(bin, 'docker'), 0o755);
  }
  const log = path.join(dir, 'docker.log');
  const env: Record<string, string> = {
    // Only the fake (or nothing) can be found as `docker`.
    PATH: bin,
    HOME: dir,
    ...urls,
    FAKE_DOCKER_LOG: log,
    FAKE_DOCKER_PIDS: path.join(dir, 'pids'),
    ...(options.infoExit !== undefined ? { FAKE_DOCKER_INFO_EXIT: String(options.infoExit) } : {}),
    ...(options.upExit !== undefined ? { FAKE_DOCKER_UP_EXIT: String(options.upExit) } : {}),
  };
  const script = `import { ensureInfra } from ${JSON.stringify(LOCAL_INFRA)};
process.exit((await ensureInfra(process.env)) ? 0 : 3);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status !== 0 && result.status !== 3)
    throw new Error(`ensureInfra crashed (${String(result.status)}): ${result.stderr}`);
  const docker = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Run['docker'][number])
    : [];
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr, docker };
}

const composeUps = (run: Run) => run.docker.filter((d) => d.args.includes('up'));
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

describe('npm start: PostgreSQL, RabbitMQ and Redis (scripts/lib/local-infra.mjs)', () => {
  it('everything reachable: docker is never called and nothing is said', async () => {
    const run = ensureInfra({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await listening()}/tyres`,
      AMQP_URL: `amqp://guest:guest@127.0.0.1:${await listening()}`,
      REDIS_URL: `redis://127.0.0.1:${await listening()}`,
    });
    expect(run.ok).toBe(true);
    expect(run.docker).toEqual([]);
    expect(run.stdout + run.stderr).toBe('');
  });

  it('PostgreSQL and Redis missing, Docker available: starts only those two from docker-compose.yml on the ports of their URLs, waits, says so', async () => {
    const pg = await closed();
    const redis = await closed();
    const run = ensureInfra({
      DATABASE_URL: `postgresql://postgres:s3cret@127.0.0.1:${pg}/tyres`,
      AMQP_URL: `amqp://guest:guest@127.0.0.1:${await listening()}`,
      REDIS_URL: `redis://localhost:${redis}`,
    });
    expect(run.stderr).toBe('');
    expect(run.ok).toBe(true);
    expect(composeUps(run)).toEqual([
      {
        args: ['compose', '-f', COMPOSE_FILE, 'up', '-d', '--wait', 'postgres', 'redis'],
        env: { POSTGRES_PORT: String(pg), POSTGRES_PASSWORD: 's3cret', REDIS_PORT: String(redis) },
      },
    ]);
    expect(run.stdout).toContain('PostgreSQL and Redis are not running here: starting them with Docker');
    expect(run.stdout).toContain('docker compose up -d --wait postgres redis');
    expect(run.stdout).toContain('✔ PostgreSQL and Redis started in Docker');
  });

  it('all three missing: one compose command for the three, RabbitMQ with the user and password of AMQP_URL', async () => {
    const [pg, mq, redis] = [await closed(), await closed(), await closed()];
    const run = ensureInfra({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${pg}/tyres`,
      AMQP_URL: `amqp://tyres:p%40ss@127.0.0.1:${mq}`,
      REDIS_URL: `redis://127.0.0.1:${redis}`,
    });
    expect(run.ok).toBe(true);
    expect(composeUps(run)).toEqual([
      {
        args: ['compose', '-f', COMPOSE_FILE, 'up', '-d', '--wait', 'postgres', 'rabbitmq', 'redis'],
        env: {
          POSTGRES_PORT: String(pg),
          RABBITMQ_PORT: String(mq),
          RABBITMQ_USER: 'tyres',
          RABBITMQ_PASSWORD: 'p@ss',
          REDIS_PORT: String(redis),
        },
      },
    ]);
    expect(run.stdout).toContain('PostgreSQL, RabbitMQ and Redis are not running here');
  });

  it('without Docker: no attempt, and the same instructions as before (what to start, or which variable to set)', async () => {
    const pg = await closed();
    const run = ensureInfra(
      {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${pg}/tyres`,
        AMQP_URL: `amqp://guest:guest@127.0.0.1:${await listening()}`,
        REDIS_URL: `redis://127.0.0.1:${await listening()}`,
      },
      { docker: false },
    );
    expect(run.ok).toBe(false);
    expect(run.docker).toEqual([]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      [
        `✖ PostgreSQL is not reachable at 127.0.0.1:${pg} (DATABASE_URL).`,
        '    start it locally:   pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
        '    or with Docker:     docker compose up -d postgres rabbitmq redis',
        '    or point the variables above at running servers.',
        '',
      ].join('\n'),
    );
  });

  it('Docker installed but not running: says to start Docker, runs no compose command, gives the instructions', async () => {
    const redis = await closed();
    const run = ensureInfra(
      {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${await listening()}/tyres`,
        AMQP_URL: `amqp://guest:guest@127.0.0.1:${await listening()}`,
        REDIS_URL: `redis://127.0.0.1:${redis}`,
      },
      { infoExit: 1 },
    );
    expect(run.ok).toBe(false);
    expect(run.docker.map((d) => d.args)).toEqual([['info']]);
    expect(run.stderr).toContain(
      'Redis is not running here, and Docker is installed but not running: start Docker',
    );
    expect(run.stderr).toContain(`✖ Redis is not reachable at 127.0.0.1:${redis} (REDIS_URL).`);
  });

  it('a server on another host is not started here: only the local one is, the remote one is reported', async () => {
    const redis = await closed();
    const run = ensureInfra({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await listening()}/tyres`,
      AMQP_URL: 'amqp://guest:guest@rabbitmq.invalid:5672',
      REDIS_URL: `redis://127.0.0.1:${redis}`,
    });
    expect(run.ok).toBe(false);
    expect(composeUps(run).map((d) => d.args.slice(-1))).toEqual([['redis']]);
    expect(run.stdout).toContain('✔ Redis started in Docker');
    expect(run.stderr).toContain('✖ RabbitMQ is not reachable at rabbitmq.invalid:5672 (AMQP_URL).');
    expect(run.stderr).not.toContain('Redis is not reachable');
  });

  it('compose fails: says so and reports what is still missing', async () => {
    const pg = await closed();
    const run = ensureInfra(
      {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${pg}/tyres`,
        AMQP_URL: `amqp://guest:guest@127.0.0.1:${await listening()}`,
        REDIS_URL: `redis://127.0.0.1:${await listening()}`,
      },
      { upExit: 1 },
    );
    expect(run.ok).toBe(false);
    expect(composeUps(run)).toHaveLength(1);
    expect(run.stderr).toContain('✖ docker compose up exited with 1');
    expect(run.stderr).toContain(`✖ PostgreSQL is not reachable at 127.0.0.1:${pg} (DATABASE_URL).`);
  });
});
