/**
 * The day refresher: the background loop that keeps the day summaries up to date (the use case is
 * src/app/day-summaries.ts; the SQL, and why the hand-over from the event handlers is race-free, are in
 * src/db/day-summaries.ts). Thin: it only decides when to refresh.
 */
import type { Logger } from '@tyres/service-kit';
import { refreshDirtyDays } from '../app/day-summaries';
import type { Db } from '../db/client';

export interface DayRefresher {
  /** Starts the loop (once). */
  start(): void;
  /** Refresh now (after a handler committed) instead of at the next poll. */
  wake(): void;
  /** Stops the loop and waits for the running batch. */
  stop(): Promise<void>;
}

/**
 * The loop that keeps the day summaries up to date: refreshes dirty days whenever woken, polls every
 * `intervalMs` for days marked by other replicas, and backs off on errors. One per replica (SKIP LOCKED shares the
 * work). Built before the event handlers (they wake it), started with the service.
 */
export function createDayRefresher(options: {
  db: Db;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
}): DayRefresher {
  const intervalMs = options.intervalMs ?? 100;
  const batchSize = options.batchSize ?? 200;
  let stopping = false;
  let woken = false;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  let failures = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sleeper = undefined;
        resolve();
      }, ms);
      sleeper = { timer, resolve };
    });

  let loop: Promise<void> | undefined;

  const run = async () => {
    while (!stopping) {
      woken = false;
      let refreshed = 0;
      try {
        refreshed = await refreshDirtyDays(options.db, batchSize);
        failures = 0;
      } catch (err) {
        failures += 1;
        options.logger.warn({ err, failures }, 'day summary refresh failed; retrying');
      }
      if (stopping) break;
      // A full batch means more is waiting: go again at once. Otherwise wait for a wake-up or the next poll.
      if (refreshed === batchSize || woken) continue;
      await sleep(failures ? Math.min(5_000, intervalMs * 2 ** failures) : intervalMs);
    }
  };

  return {
    start() {
      loop ??= run();
    },
    wake() {
      woken = true;
      if (sleeper) {
        clearTimeout(sleeper.timer);
        const { resolve } = sleeper;
        sleeper = undefined;
        resolve();
      }
    },
    async stop() {
      stopping = true;
      if (sleeper) {
        clearTimeout(sleeper.timer);
        sleeper.resolve();
      }
      await loop;
    },
  };
}
