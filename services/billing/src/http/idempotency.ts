import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { conflict } from '@tyres/service-kit';

const KEY = /^[A-Za-z0-9._-]{8,128}$/;
const TTL_SECONDS = 24 * 3600;

/**
 * Idempotency-Key support for mutations a client may retry (conventions: "accept an Idempotency-Key and replay the
 * first answer"). The first answer below 500 is kept in Redis for 24 h per (scope, caller, key) and replayed; a
 * concurrent request with the same key gets 409 while the first is running. Without the header it does nothing.
 */
export function idempotent(redis: Redis, keyPrefix: string, scope: string): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header('idempotency-key');
    if (!key) return next();
    if (!KEY.test(key)) return next();
    const caller = req.identity?.id ?? 'public';
    const redisKey = `${keyPrefix}billing:idempotency:${scope}:${caller}:${req.originalUrl}:${key}`;
    let stored: string | null;
    try {
      stored = await redis.get(redisKey);
    } catch {
      return next(); // Redis down: no replay protection beyond the endpoint's own rules
    }
    if (stored) {
      const replay = JSON.parse(stored) as { status: number; body: unknown } | { pending: true };
      if ('pending' in replay)
        return next(
          conflict(
            'A request with this Idempotency-Key is still in progress',
            undefined,
            'idempotency_in_progress',
          ),
        );
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(replay.status).json(replay.body);
      return;
    }
    const claimed = await redis
      .set(redisKey, JSON.stringify({ pending: true }), 'EX', 60, 'NX')
      .catch(() => 'OK');
    if (claimed !== 'OK')
      return next(
        conflict(
          'A request with this Idempotency-Key is still in progress',
          undefined,
          'idempotency_in_progress',
        ),
      );
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const write =
        status < 500
          ? redis.set(redisKey, JSON.stringify({ status, body }), 'EX', TTL_SECONDS)
          : redis.del(redisKey);
      write.catch(() => undefined);
      return json(body);
    };
    next();
  };
}
