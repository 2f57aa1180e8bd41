/**
 * The day refresher: the background loop that keeps the day summaries up to date (the use case is
 * src/app/day-summaries.ts; the SQL, and why the hand-over from the event handlers is race-free, are in
 * src/db/day-summaries.ts). Thin: it only decides when to refresh.
 */
import type { Logger } from '@tyres/service-kit';
import { refreshDirtyDays } from '../app/day-summaries';
import { poolOf, type Db } from '../db/client';
import { tryBacklogRefreshSlot } from '../db/day-summaries';

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
  /**
   * The backlog is folded (the queue is drained): the pause after the current run ends now and the days the backlog
   * left dirty are refreshed back to back. Also wakes the loop.
   */
  backlogDone(): void;
  /** Whether a backlog is being folded (a full batch within the last `backlogGapMs`). */
  inBacklog(): boolean;
  /** Stops the loop and waits for the running batch. */
  stop(): Promise<void>;
}

/**
 * The loop that keeps the day summaries up to date: refreshes dirty days whenever woken, polls every
 * `intervalMs` for days marked by other replicas, and backs off on errors. One per replica (per-day locks share the
 * work; while a backlog is folded, one at a time). Built before the event handlers (they wake it), started with the
 * service.
 */
export function createDayRefresher(options: {
  db: Db;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
  /**
   * Shortest pause after a run that refreshed something, wake-ups or not (default 0). While events pour in (a backlog
   * after an outage, see `backlog()`), the pause is at least four times the run's own time and `backlogGapMs`: runs
   * get long then (a refresh over many days reads whole fact tables), and each day is refreshed once per pause
   * instead of after every batch that touched it.
   */
  busyGapMs?: number;
  /** The pause after a run while a backlog is being folded (default 1 s; see `backlog()`). */
  backlogGapMs?: number;
  /**
   * Idle backoff: after a poll that found nothing, the next poll waits twice as long, up to this (default
   * `REPORTING_REFRESH_IDLE_MAX_MS`, else 1 s; set it to `intervalMs`, 100, for the old fixed 100 ms poll). A run
   * that refreshed something, or a wake-up (this replica's handlers after every commit), resets it to `intervalMs`.
   * Only days marked by another replica's handlers wait for a poll, and they are refreshed by that replica's own
   * refresher anyway (it is woken), so the poll is a fallback.
   */
  idleMaxMs?: number;
}): DayRefresher {
  const intervalMs = options.intervalMs ?? 100;
  const idleMaxMs = Math.max(
    intervalMs,
    options.idleMaxMs ?? (Number(process.env.REPORTING_REFRESH_IDLE_MAX_MS) || 1_000),
  );
  /** The next idle poll's wait (doubles while idle, back to intervalMs after work or a wake-up). */
  let idleMs = intervalMs;
  let lastRefreshed = 0;
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
  const pool = poolOf(options.db);

  const inBacklog = () => Date.now() - backlogAt < backlogGapMs;

  /** One run and the pause after it; true to run again at once, false to wait for a wake-up or the next poll. */
  const step = async (): Promise<boolean> => {
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
    lastRefreshed = refreshed;
    if (stopping || refreshed === 0) return woken;
    // Let more changes gather (see busyGapMs); then a full batch, or a wake-up meanwhile, means go again.
    woken = false;
    // While a backlog is folded, at least four times the run's own time (and backlogGapMs): a refresh over many days
    // reads whole fact tables, the batches keep dirtying the same days, and the refresh should take at most a fifth
    // of the time, leaving the rest to the event batches. Otherwise no pause beyond busyGapMs: once the backlog is
    // folded, the days it left dirty are refreshed back to back (issue 16: the pause used to apply then too, and the
    // last seconds of a catch-up were mostly this pause).
    await pause(inBacklog() ? Math.max(busyGapMs, 4 * (Date.now() - started), backlogGapMs) : busyGapMs);
    return !stopping && (refreshed === batchSize || woken);
  };

  const run = async () => {
    while (!stopping) {
      // While a backlog is folded, one refresher at a time across replicas, its pause included (issue 16): with one
      // refresher per replica pacing itself, two replicas spent twice the CPU on refreshes that the backlog undoes.
      // Once the backlog is folded, every replica's refresher works (on different days).
      let slot: { release(): Promise<void> } | undefined;
      if (inBacklog()) {
        const taken = await tryBacklogRefreshSlot(pool).then(
          (held) => held ?? ('elsewhere' as const),
          () => undefined, // Postgres unreachable: the run below fails and backs off
        );
        if (taken === 'elsewhere') {
          await sleep(intervalMs);
          continue;
        }
        slot = taken;
      }
      let again: boolean;
      try {
        again = await step();
      } finally {
        await slot?.release();
      }
      if (stopping) break;
      if (again) {
        idleMs = intervalMs;
        continue;
      }
      if (failures) {
        await sleep(Math.min(5_000, intervalMs * 2 ** failures));
        continue;
      }
      // Work just done: poll again soon. Nothing found: back off towards idleMaxMs (a wake() cuts any wait short).
      idleMs = lastRefreshed > 0 ? intervalMs : idleMs;
      await sleep(idleMs);
      idleMs = woken ? intervalMs : Math.min(idleMaxMs, idleMs * 2);
    }
  };

  const wake = () => {
    woken = true;
    if (sleeper) {
      clearTimeout(sleeper.timer);
      const { resolve } = sleeper;
      sleeper = undefined;
      resolve();
    }
  };

  return {
    start() {
      loop ??= run();
    },
    wake,
    backlog() {
      backlogAt = Date.now();
    },
    inBacklog,
    backlogDone() {
      // Issue 16: the pause (4x the run, at least 1 s) used to run on after the last full batch, so the summaries
      // of a catch-up waited for it (and, with two replicas, the backlog slot stayed held meanwhile).
      const wasInBacklog = inBacklog();
      backlogAt = -Infinity;
      wake();
      if (wasInBacklog && pauser) {
        clearTimeout(pauser.timer);
        const { resolve } = pauser;
        pauser = undefined;
        resolve();
      }
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
