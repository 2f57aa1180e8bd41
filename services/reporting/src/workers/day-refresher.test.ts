/**
 * The day refresher's pacing (issue 16): while a backlog is folded it pauses after each run; once a batch comes in
 * less than full (backlogDone), the pause ends at once and the days left dirty are refreshed back to back.
 */
const refreshDirtyDays = jest.fn<Promise<number>, unknown[]>();
const tryBacklogRefreshSlot = jest.fn();

jest.mock('../app/day-summaries', () => ({
  refreshDirtyDays: (...args: unknown[]) => refreshDirtyDays(...args),
}));
jest.mock('../db/day-summaries', () => ({ tryBacklogRefreshSlot: () => tryBacklogRefreshSlot() }));
jest.mock('../db/client', () => ({ poolOf: () => ({}) }));

import type { Db } from '../db/client';
import { createDayRefresher } from './day-refresher';

const logger = { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() } as never;
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('day refresher pacing', () => {
  beforeEach(() => {
    refreshDirtyDays.mockReset();
    tryBacklogRefreshSlot.mockReset();
    tryBacklogRefreshSlot.mockResolvedValue({ release: async () => undefined });
  });

  it('ends the backlog pause as soon as a batch comes in less than full', async () => {
    // Each run refreshes one day (less than its batch size of 200): during the backlog a run is followed by a long
    // pause (backlogGapMs); backlogDone cuts it short and the next run follows at once.
    refreshDirtyDays.mockResolvedValue(1);
    const refresher = createDayRefresher({ db: {} as Db, logger, intervalMs: 10_000, backlogGapMs: 5_000 });
    refresher.backlog();
    refresher.start();
    await tick(50);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(1); // then pausing for 5 s
    expect(tryBacklogRefreshSlot).toHaveBeenCalledTimes(1);
    expect(refresher.inBacklog()).toBe(true);
    refresher.backlogDone();
    expect(refresher.inBacklog()).toBe(false);
    await tick(50);
    // Woken and out of the backlog: run again at once, without the backlog slot.
    expect(refreshDirtyDays).toHaveBeenCalledTimes(2);
    expect(tryBacklogRefreshSlot).toHaveBeenCalledTimes(1);
    await refresher.stop();
  });

  it('a wake-up alone does not end the backlog pause', async () => {
    refreshDirtyDays.mockResolvedValue(1);
    const refresher = createDayRefresher({ db: {} as Db, logger, intervalMs: 10_000, backlogGapMs: 5_000 });
    refresher.backlog();
    refresher.start();
    await tick(50);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(1);
    refresher.wake();
    await tick(50);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(1);
    await refresher.stop();
  });

  it('outside a backlog, backlogDone is a wake-up', async () => {
    refreshDirtyDays.mockResolvedValue(0);
    const refresher = createDayRefresher({ db: {} as Db, logger, intervalMs: 10_000 });
    refresher.start();
    await tick(50);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(1); // nothing dirty: sleeping until the next poll (10 s)
    refresher.backlogDone();
    await tick(50);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(2);
    expect(tryBacklogRefreshSlot).not.toHaveBeenCalled();
    await refresher.stop();
  });

  it('backs off while idle (doubling up to idleMaxMs), polls fast after work, and a wake-up runs at once', async () => {
    refreshDirtyDays.mockResolvedValue(0);
    const refresher = createDayRefresher({ db: {} as Db, logger, intervalMs: 20, idleMaxMs: 160 });
    refresher.start();
    // Idle polls at 0, 20, 60, 140, 300, 460, 620 ms...: about 5 in 500 ms (a fixed 20 ms poll would be 25).
    await tick(500);
    const idlePolls = refreshDirtyDays.mock.calls.length;
    expect(idlePolls).toBeGreaterThanOrEqual(4);
    expect(idlePolls).toBeLessThanOrEqual(7);
    // A wake-up cuts the long idle wait short.
    refresher.wake();
    await tick(10);
    expect(refreshDirtyDays).toHaveBeenCalledTimes(idlePolls + 1);
    // Work found: the next poll is intervalMs later, not the backed-off wait.
    refreshDirtyDays.mockResolvedValueOnce(1).mockResolvedValueOnce(1);
    refresher.wake();
    await tick(70);
    expect(refreshDirtyDays.mock.calls.length).toBeGreaterThanOrEqual(idlePolls + 4);
    await refresher.stop();
  });
});
