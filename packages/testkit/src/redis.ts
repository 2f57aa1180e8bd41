import type { Redis } from 'ioredis';
import { getRedisUrl } from './infra';

/** Escapes glob characters so a prefix is matched literally by SCAN MATCH. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** A new ioredis client for the test Redis (lazy-required; close it with `quit()`). */
export async function createRedisClient(url?: string): Promise<Redis> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only suites that use Redis load ioredis
  const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
  const client = new RedisClient(url ?? (await getRedisUrl()), {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Deletes every key starting with `prefix` (SCAN + UNLINK in batches; never KEYS). Pass a client or let it open
 * (and close) one on REDIS_URL. Returns how many keys were deleted. Refuses an empty prefix.
 */
export async function deleteRedisKeysByPrefix(prefix: string, client?: Redis): Promise<number> {
  if (!prefix) throw new Error('deleteRedisKeysByPrefix needs a non-empty prefix');
  const redis = client ?? (await createRedisClient());
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    if (!client) await redis.quit().catch(() => undefined);
  }
  return deleted;
}
