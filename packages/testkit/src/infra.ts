import { existsSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the integration infrastructure comes from, in this order:
 *   1. the environment: DATABASE_URL / AMQP_URL / REDIS_URL (CI machines without Docker);
 *   2. Docker, through testcontainers (started once per jest worker, removed when the worker exits);
 *   3. the team's local defaults (docs/team-conventions.md) if something answers on that port
 *      (developer machines running postgres/rabbitmq/redis natively); TESTKIT_NO_LOCAL_DEFAULTS=1 turns this off;
 *   4. otherwise a clear error naming the variable to set.
 * testcontainers is only require()d on path 2, so it never loads when the variables are set.
 */

export type Service = 'postgres' | 'rabbitmq' | 'redis';

interface ServiceSpec {
  envVar: 'DATABASE_URL' | 'AMQP_URL' | 'REDIS_URL';
  localDefault: string;
  image: string;
  imageEnvVar: string;
}

const SPECS: Record<Service, ServiceSpec> = {
  postgres: {
    envVar: 'DATABASE_URL',
    localDefault: 'postgresql://postgres@127.0.0.1:5432/postgres',
    image: 'postgres:16-alpine',
    imageEnvVar: 'TESTKIT_POSTGRES_IMAGE',
  },
  rabbitmq: {
    envVar: 'AMQP_URL',
    localDefault: 'amqp://guest:guest@127.0.0.1:5672',
    image: 'rabbitmq:3.13-alpine',
    imageEnvVar: 'TESTKIT_RABBITMQ_IMAGE',
  },
  redis: {
    envVar: 'REDIS_URL',
    localDefault: 'redis://127.0.0.1:6379',
    image: 'redis:7-alpine',
    imageEnvVar: 'TESTKIT_REDIS_IMAGE',
  },
};

export interface ResolvedUrl {
  url: string;
  source: 'env' | 'container' | 'local-default';
}

/**
 * State shared by every test file of one jest worker. Jest gives each test file a fresh module registry and
 * global object, but Node's built-in modules are the same objects for all of them, so the cache hangs off one.
 */
export function workerState<T>(key: string, create: () => T): T {
  const holder = os as unknown as Record<symbol, Map<string, unknown> | undefined>;
  const sym = Symbol.for('@tyres/testkit.worker-state');
  const map = (holder[sym] ??= new Map<string, unknown>());
  if (!map.has(key)) map.set(key, create());
  return map.get(key) as T;
}

function canReach(url: string, timeoutMs = 500): Promise<boolean> {
  let host = '127.0.0.1';
  let port = 0;
  try {
    const u = new URL(url);
    host = u.hostname || host;
    port =
      Number(u.port) ||
      { 'postgresql:': 5432, 'postgres:': 5432, 'amqp:': 5672, 'redis:': 6379 }[u.protocol] ||
      0;
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Cheap check before loading testcontainers: is any Docker endpoint configured or present? */
function dockerEndpointPresent(): boolean {
  if (process.env.DOCKER_HOST || process.env.TESTCONTAINERS_HOST_OVERRIDE) return true;
  const home = os.homedir();
  const candidates = [
    '/var/run/docker.sock',
    path.join(home, '.testcontainers.properties'),
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.docker', 'desktop', 'docker.sock'),
    ...(process.env.XDG_RUNTIME_DIR ? [path.join(process.env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
  ];
  return candidates.some((p) => existsSync(p));
}

/** True when testcontainers can talk to a container runtime (cached per worker). */
export function dockerAvailable(): Promise<boolean> {
  return workerState('docker-available', async () => {
    if (process.env.TESTKIT_NO_DOCKER === '1' || !dockerEndpointPresent()) return false;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only when Docker may be used
      const tc = require('testcontainers') as typeof import('testcontainers');
      const probe = tc.getContainerRuntimeClient().then(() => true);
      const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref());
      return await Promise.race([probe, timeout]);
    } catch {
      return false;
    }
  });
}

async function startContainer(service: Service): Promise<string> {
  const image = process.env[SPECS[service].imageEnvVar] ?? SPECS[service].image;
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy: testcontainers only loads on this path */
  switch (service) {
    case 'postgres': {
      const { PostgreSqlContainer } =
        require('@testcontainers/postgresql') as typeof import('@testcontainers/postgresql');
      const started = await new PostgreSqlContainer(image).withDatabase('postgres').start();
      return started.getConnectionUri();
    }
    case 'rabbitmq': {
      const { RabbitMQContainer } =
        require('@testcontainers/rabbitmq') as typeof import('@testcontainers/rabbitmq');
      const started = await new RabbitMQContainer(image).start();
      return started.getAmqpUrl();
    }
    case 'redis': {
      const { RedisContainer } = require('@testcontainers/redis') as typeof import('@testcontainers/redis');
      const started = await new RedisContainer(image)
        .withCommand(['redis-server', '--maxmemory-policy', 'noeviction'])
        .start();
      return started.getConnectionUrl();
    }
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

async function resolve(service: Service): Promise<ResolvedUrl> {
  const spec = SPECS[service];
  const fromEnv = process.env[spec.envVar];
  if (fromEnv) return { url: fromEnv, source: 'env' };
  if (await dockerAvailable()) return { url: await startContainer(service), source: 'container' };
  if (process.env.TESTKIT_NO_LOCAL_DEFAULTS !== '1' && (await canReach(spec.localDefault))) {
    return { url: spec.localDefault, source: 'local-default' };
  }
  throw new Error(
    `${spec.envVar} is not set and no Docker engine is reachable for testcontainers` +
      (process.env.TESTKIT_NO_LOCAL_DEFAULTS === '1' ? '' : `, and nothing answers at ${spec.localDefault}`) +
      `. Set ${spec.envVar} (e.g. ${spec.envVar}=${spec.localDefault}) or start Docker ` +
      `(docker compose up -d postgres rabbitmq redis).`,
  );
}

/** Resolves (once per jest worker) where `service` runs. */
export function resolveService(service: Service): Promise<ResolvedUrl> {
  const pending = workerState(`url:${service}`, () => resolve(service));
  // A failed resolution must not be cached for the whole worker.
  return pending.catch((err: unknown) => {
    forgetWorkerState(`url:${service}`);
    throw err;
  });
}

export function forgetWorkerState(key: string): void {
  const holder = os as unknown as Record<symbol, Map<string, unknown> | undefined>;
  holder[Symbol.for('@tyres/testkit.worker-state')]?.delete(key);
}

/** Admin URL of a Postgres server (tests create their own databases on it: see createTestDatabase). */
export async function getDatabaseUrl(): Promise<string> {
  return (await resolveService('postgres')).url;
}

export async function getAmqpUrl(): Promise<string> {
  return (await resolveService('rabbitmq')).url;
}

export async function getRedisUrl(): Promise<string> {
  return (await resolveService('redis')).url;
}
