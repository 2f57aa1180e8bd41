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
  /**
   * Events are pouring in (a full batch was just folded): for a while, pause at least `backlogGapMs` after each
   * run, so the days a backlog keeps dirtying are refreshed once per round rather than after every batch.
   */
  backlog(): void;
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
  /**
   * Shortest pause after a run that refreshed something, wake-ups or not (default 0); the pause is at least four
   * times the run's own time. While events pour in (a backlog after an outage), runs get long (a refresh over many
   * days reads whole fact tables): each day is then refreshed once per pause instead of after every batch that
   * touched it, and the batches wait less on the days a refresh holds. A lone write's refresh is short, and so is
   * its pause.
   */
  busyGapMs?: number;
  /** The pause after a run while a backlog is being folded (default 1 s; see `backlog()`). */
  backlogGapMs?: number;
}): DayRefresher {
  const intervalMs = options.intervalMs ?? 100;
  const busyGapMs = options.busyGapMs ?? 0;
  const backlogGapMs = options.backlogGapMs ?? 1_000;
  /** When a full batch was last folded. */
  let backlogAt = -Infinity;
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

  /** A sleep wake() does not cut short (stop() does). */
  let pauser: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pauser = undefined;
        resolve();
      }, ms);
      pauser = { timer, resolve };
    });

  let loop: Promise<void> | undefined;

  const run = async () => {
    while (!stopping) {
      woken = false;
      let refreshed = 0;
      const started = Date.now();
      try {
        refreshed = await refreshDirtyDays(options.db, batchSize);
        failures = 0;
      } catch (err) {
        failures += 1;
        options.logger.warn({ err, failures }, 'day summary refresh failed; retrying');
      }
      if (stopping) break;
      if (refreshed > 0) {
        // Let more changes gather (see busyGapMs); then a full batch, or a wake-up meanwhile, means go again.
        woken = false;
        // At least four times the run's own time: a refresh over many days reads whole fact tables, and during a
        // backlog it should take at most a fifth of the time, leaving the rest to the event batches.
        const inBacklog = Date.now() - backlogAt < backlogGapMs;
        await pause(Math.max(busyGapMs, 4 * (Date.now() - started), inBacklog ? backlogGapMs : 0));
        if (stopping) break;
        if (refreshed === batchSize || woken) continue;
      } else if (woken) continue;
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
    backlog() {
      backlogAt = Date.now();
    },
    async stop() {
      stopping = true;
      for (const s of [sleeper, pauser]) {
        if (!s) continue;
        clearTimeout(s.timer);
        s.resolve();
      }
      await loop;
    },
  };
}
