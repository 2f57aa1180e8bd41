/** A fresh copy of the module inside jest.isolateModules (so the doMock()s above apply). */
function loadInfra(): typeof import('./infra') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./infra') as typeof import('./infra');
}

describe('infrastructure resolution', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    jest.resetModules();
  });

  it('uses the environment and never loads testcontainers when the URLs are set', async () => {
    process.env.DATABASE_URL = 'postgresql://ci@db:5432/postgres';
    process.env.AMQP_URL = 'amqp://ci@mq:5672';
    process.env.REDIS_URL = 'redis://cache:6379';
    const loaded: string[] = [];
    for (const name of [
      'testcontainers',
      '@testcontainers/postgresql',
      '@testcontainers/rabbitmq',
      '@testcontainers/redis',
    ]) {
      jest.doMock(name, () => {
        loaded.push(name);
        return {};
      });
    }
    await jest.isolateModulesAsync(async () => {
      const { getDatabaseUrl, getAmqpUrl, getRedisUrl, resolveService, forgetWorkerState } = loadInfra();
      for (const s of ['postgres', 'rabbitmq', 'redis']) forgetWorkerState(`url:${s}`);
      await expect(getDatabaseUrl()).resolves.toBe('postgresql://ci@db:5432/postgres');
      await expect(getAmqpUrl()).resolves.toBe('amqp://ci@mq:5672');
      await expect(getRedisUrl()).resolves.toBe('redis://cache:6379');
      await expect(resolveService('redis')).resolves.toEqual({ url: 'redis://cache:6379', source: 'env' });
      for (const s of ['postgres', 'rabbitmq', 'redis']) forgetWorkerState(`url:${s}`);
    });
    expect(loaded).toEqual([]);
  });

  it('names the variable when there is neither a URL, nor Docker, nor a local server', async () => {
    delete process.env.REDIS_URL;
    process.env.TESTKIT_NO_DOCKER = '1';
    process.env.TESTKIT_NO_LOCAL_DEFAULTS = '1';
    await jest.isolateModulesAsync(async () => {
      const { getRedisUrl, forgetWorkerState } = loadInfra();
      forgetWorkerState('url:redis');
      forgetWorkerState('docker-available');
      await expect(getRedisUrl()).rejects.toThrow(/REDIS_URL is not set and no Docker engine is reachable/);
      forgetWorkerState('docker-available');
    });
  });
});
