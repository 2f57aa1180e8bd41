/**
 * Releases prepaid holds whose time ran out (BookingExpired through the outbox) and purges the chunks of photo
 * uploads a crashed process left half-received (db/photo-chunks.ts). Old Idempotency-Keys and inbox rows are the
 * runtime's maintenance (service-kit), as in every service.
 * A plain timer rather than a queue: the work is one idempotent SQL batch, safe on every replica at once
 * (FOR UPDATE SKIP LOCKED), and reads already treat an expired hold as free, so the sweep only has to be prompt
 * about the event, not about availability.
 */
import type { Outbox, PgExecutor } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import { ABANDONED_UPLOAD_MS, type PhotoChunks } from '../db/photo-chunks';
import { expireHolds } from '../app/slots';

export interface HoldSweeper {
  /** One pass: expires every due hold (in batches); returns how many. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createHoldSweeper(deps: {
  sql: PgExecutor;
  photoChunks: PhotoChunks;
  outbox: Outbox;
  wake: () => void;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
}): HoldSweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let lastUploadPurge = 0;

  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await deps.sql.$transaction((tx) => expireHolds(tx, deps.outbox, deps.clock(), 100));
      total += n;
      if (n < 100) break;
    }
    if (total > 0) {
      deps.wake();
      deps.logger.info({ expired: total }, 'expired prepaid holds released');
    }
    if (Date.now() - lastUploadPurge > 300_000) {
      lastUploadPurge = Date.now();
      // Real time, not the business clock: this is about how long a request can have been running.
      const abandoned = await deps.photoChunks.purgeAbandoned(new Date(Date.now() - ABANDONED_UPLOAD_MS));
      if (abandoned > 0) deps.logger.info({ abandoned }, 'abandoned photo uploads purged');
    }
    return total;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((err: unknown) => deps.logger.warn({ err }, 'hold sweep failed; will retry'))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, deps.intervalMs);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
