import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producers fail fast when Redis is down (no offline queue); BullMQ workers need maxRetriesPerRequest null so
 * blocking commands survive reconnects.
 */
export function createRedis(
  url: string,
  role: 'client' | 'worker' = 'client',
  extra: RedisOptions = {},
): Redis {
  return new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: role === 'worker' ? null : 2,
    enableOfflineQueue: role === 'worker',
    retryStrategy: (times) => Math.min(times * 200, 5000),
    ...extra,
  });
}

export async function pingRedis(redis: Redis): Promise<void> {
  const pong = await redis.ping();
  if (pong !== 'PONG') throw new Error(`unexpected redis reply ${pong}`);
}
