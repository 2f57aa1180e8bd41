/**
 * Issue 18 (privacy): deletes the photos of jobs paid more than PHOTO_RETENTION_MONTHS ago (default 12). A plain
 * timer like the hold sweeper rather than a BullMQ queue (booking runs no Redis queue): each pass is one idempotent
 * SQL batch, safe on every replica at once (FOR UPDATE SKIP LOCKED), and a missed pass is caught up by the next.
 */
import type { Outbox } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import type { Db } from '../db/client';
import { TX_OPTIONS } from '../db/bookings';
import { deleteDuePhotos } from '../db/photo-retention';
import { retentionCutoff } from '../domain/erasure';
import { eventMeta, photosDeletedEvent } from '../events/erasure-builders';

export interface PhotoRetentionSweeper {
  /** One pass: deletes every due job's photos (in batches); returns how many photos went. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createPhotoRetentionSweeper(deps: {
  db: Db;
  outbox: Outbox;
  wake: () => void;
  clock: () => Date;
  logger: Logger;
  months: number;
  intervalMs: number;
}): PhotoRetentionSweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  async function runOnce(): Promise<number> {
    let photos = 0;
    for (;;) {
      const now = deps.clock();
      const cutoff = retentionCutoff(now, deps.months);
      // The photos go and BookingPhotosDeleted (jobs drops their metadata) is written in the same transaction.
      const batch = await deps.db.$transaction(async (tx) => {
        const jobs = await deleteDuePhotos(tx, cutoff, now, 50);
        for (const job of jobs)
          for (let i = 0; i < job.photoIds.length; i += 100)
            await deps.outbox.enqueue(
              tx,
              photosDeletedEvent(
                {
                  jobId: job.jobId,
                  photoIds: job.photoIds.slice(i, i + 100),
                  reason: 'retention',
                  deletedAt: now.toISOString(),
                },
                eventMeta(),
              ),
            );
        return jobs;
      }, TX_OPTIONS);
      const n = batch.reduce((sum, j) => sum + j.photoIds.length, 0);
      photos += n;
      if (batch.length > 0) {
        deps.wake();
        deps.logger.info({ jobs: batch.length, photos: n }, 'photos past their retention deleted');
      }
      if (batch.length < 50) break;
    }
    return photos;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((err: unknown) => deps.logger.warn({ err }, 'photo retention sweep failed; will retry'))
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
