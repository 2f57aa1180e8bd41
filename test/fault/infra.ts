import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Stops and restarts the machine's RabbitMQ and Redis the way an outage would, and puts them back exactly as
 * .ci/run starts them. Only for the fault stage (scripts/fault.mjs), which holds no other test run alongside it;
 * the stage re-checks both after jest, whatever happened here (scripts/lib/fault-infra.mjs).
 */
const exec = promisify(execFile);
const REDIS = ['-h', '127.0.0.1', '-p', '6379'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

export async function redisUp(): Promise<boolean> {
  const { stdout } = await exec('redis-cli', [...REDIS, 'ping'], { timeout: 5_000 }).catch(() => ({
    stdout: '',
  }));
  return stdout.trim() === 'PONG';
}

/** Redis goes away without saving: what a crash or a pod restart without persistence does. */
export async function stopRedis(): Promise<void> {
  await exec('redis-cli', [...REDIS, 'shutdown', 'nosave'], { timeout: 10_000 }).catch(() => undefined);
  await until('Redis stopped', async () => !(await redisUp()), 15_000);
}

/** Starts Redis as .ci/run does (empty, no persistence), unless it is already up. */
export async function startRedis(): Promise<void> {
  if (!(await redisUp()))
    await exec('redis-server', [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      '6379',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
  await until('Redis answering', redisUp, 30_000);
  await exec('redis-cli', [...REDIS, 'config', 'set', 'maxmemory-policy', 'noeviction']);
}

export async function rabbitUp(): Promise<boolean> {
  await exec('rabbitmq-diagnostics', ['-q', 'check_port_connectivity'], { timeout: 20_000 });
  return true;
}

/** The broker application stops (connections dropped, port closed); the node stays up for start_app. */
export async function stopRabbit(): Promise<void> {
  await exec('rabbitmqctl', ['-q', 'stop_app'], { timeout: 60_000 });
}

export async function startRabbit(): Promise<void> {
  await exec('rabbitmqctl', ['-q', 'start_app'], { timeout: 120_000 }).catch(() => undefined);
  await until('RabbitMQ accepting connections', rabbitUp, 120_000);
}
