/**
 * The end-to-end suites' clock (TEST_CLOCK=header; config.ts refuses it when NODE_ENV=production): a request may
 * carry `x-test-clock-offset-ms: <ms>` and booking then takes "now" as the real time plus that offset for everything
 * the request does (the cancellation policy's band, whether a slot has started for Mark no-show, which slots are
 * bookable). A Chromium test can so cancel a booking "6 hours before" its slot, or mark a no-show "after it started",
 * without waiting for the wall clock. Work not started by a request (the hold sweeper, event handlers) keeps the
 * real time. Off (the default), the header is ignored and never read.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

export const TEST_CLOCK_HEADER = 'x-test-clock-offset-ms';
/** At most a year either way: enough for any policy band or horizon, and a typo does not go to year 3000. */
const MAX_OFFSET_MS = 366 * 24 * 3_600_000;

export interface TestClock {
  clock: () => Date;
  /** Runs the rest of the request with the offset its header asks for. */
  middleware: RequestHandler;
}

/** The offset a header value asks for, or undefined (absent, not a whole number, beyond a year). */
export function parseOffset(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^-?\d{1,14}$/.test(value.trim())) return undefined;
  const offset = Number(value.trim());
  return Math.abs(offset) <= MAX_OFFSET_MS ? offset : undefined;
}

export function headerTestClock(now: () => number = Date.now): TestClock {
  const offsets = new AsyncLocalStorage<number>();
  return {
    clock: () => new Date(now() + (offsets.getStore() ?? 0)),
    middleware: (req, _res, next) => {
      const offset = parseOffset(req.headers[TEST_CLOCK_HEADER]);
      if (offset === undefined) return next();
      offsets.run(offset, next);
    },
  };
}
