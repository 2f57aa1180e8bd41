// Puts the machine's Redis and RabbitMQ back the way .ci/run starts them, whatever a fault test left behind
// (scripts/fault.mjs runs it after jest, also when jest crashed or was killed mid-outage).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const REDIS = ['-h', '127.0.0.1', '-p', '6379'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function redisUp() {
  const { stdout } = await exec('redis-cli', [...REDIS, 'ping'], { timeout: 5_000 }).catch(() => ({
    stdout: '',
  }));
  return stdout.trim() === 'PONG';
}

async function rabbitUp() {
  return exec('rabbitmq-diagnostics', ['-q', 'check_port_connectivity'], { timeout: 20_000 }).then(
    () => true,
    () => false,
  );
}

async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not back within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

async function restoreRedis() {
  if (!(await redisUp())) {
    console.log('fault stage: Redis was down, starting it as .ci/run does');
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
    await until('Redis', redisUp, 30_000);
  }
  await exec('redis-cli', [...REDIS, 'config', 'set', 'maxmemory-policy', 'noeviction']);
}

async function restoreRabbit() {
  if (!(await rabbitUp())) {
    console.log('fault stage: RabbitMQ was stopped, running rabbitmqctl start_app');
    await exec('rabbitmqctl', ['-q', 'start_app'], { timeout: 120_000 }).catch(async () => {
      // The node itself is gone: start it as .ci/run does.
      await exec('rabbitmq-server', ['-detached']).catch(() => undefined);
    });
    await until('RabbitMQ', rabbitUp, 120_000);
  }
}

/**
 * Restarts whichever of Redis and RabbitMQ is down; says what it did. Each is restored on its own (a Redis that will
 * not start never leaves RabbitMQ stopped); throws afterwards if either stays down.
 */
export async function restoreInfrastructure() {
  const results = await Promise.allSettled([restoreRedis(), restoreRabbit()]);
  const failed = results
    .filter((r) => r.status === 'rejected')
    .map((r) => r.reason?.message ?? String(r.reason));
  if (failed.length) throw new Error(`fault stage could not restore: ${failed.join('; ')}`);
}
