/**
 * Runs the roster pull (app/roster-sync.ts) at start and then until it succeeds once: a gateway without the route
 * (404: its team has not deployed it yet), an unreachable gateway or a database outage is retried with backoff
 * (the interval doubles from ROSTER_SYNC_RETRY_MS up to ROSTER_SYNC_RETRY_MAX_MS), logged at warn once per attempt,
 * and never stops the service. Once booking.roster_sync has its row the timer ends for good (on every replica:
 * each finds the row at its next attempt, or at start).
 */
import type { Logger } from '@tyres/service-kit';
import { GatewayUnavailableError, type RosterSync } from '../app/roster-sync';

export interface RosterSyncWorker {
  start(): void;
  stop(): Promise<void>;
  /** Settles when the pull has been applied (tests). */
  readonly done: Promise<void>;
}

export function createRosterSyncWorker(deps: {
  sync: RosterSync;
  logger: Logger;
  retryMs: number;
  retryMaxMs: number;
  /**
   * Whether booking's queues are bound (the consumer bus is up). The pull waits for it: a user change made after the
   * snapshot is read must find booking's queue to land in, or the exchange drops it (a broker down at start).
   */
  ready?: () => boolean;
}): RosterSyncWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let failures = 0;
  let lastWaitWarning = 0;
  /** How often readiness is looked at while waiting for the bus. */
  const readyPollMs = Math.min(deps.retryMs, 1000);
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  async function attempt(): Promise<boolean> {
    try {
      const outcome = await deps.sync.runOnce();
      if (outcome.kind === 'synced')
        deps.logger.info(
          { technicians: outcome.technicians, recorded: outcome.recorded },
          "roster synced with the gateway's active technicians",
        );
      return true;
    } catch (err) {
      failures++;
      const next = Math.min(deps.retryMaxMs, deps.retryMs * 2 ** Math.min(failures - 1, 20));
      const reason =
        err instanceof GatewayUnavailableError ? err.reason : err instanceof Error ? err.message : err;
      deps.logger.warn(
        { reason, attempts: failures, retryInMs: next },
        "roster sync: the gateway's technicians could not be applied; will retry",
      );
      return false;
    }
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      if (deps.ready && !deps.ready()) {
        if (Date.now() - lastWaitWarning >= deps.retryMs) {
          lastWaitWarning = Date.now();
          deps.logger.warn(
            "roster sync: waiting for booking's event queues (broker) before pulling the technicians",
          );
        }
        return schedule(readyPollMs);
      }
      running = attempt()
        .then((ok) => {
          if (ok) resolveDone();
          else schedule(Math.min(deps.retryMaxMs, deps.retryMs * 2 ** Math.min(failures - 1, 20)));
        })
        .finally(() => (running = undefined));
    }, delayMs);
    timer.unref();
  }

  return {
    done,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
