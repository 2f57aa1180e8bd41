import { SlotCache } from './slot-cache';
import type { SlotRows } from './slots';

const rows = (tag: string): SlotRows => ({
  blocks: [{ slot: '8-10 AM', reason: tag }],
  reservations: [],
  day: { activeTechnicians: 0, rostered: 0, onLeave: 0, holidayOpened: false, calendarBlocks: [] },
});

function setup(maxEntries?: number) {
  let version = 0;
  // A realistic clock: lru-cache reads a start time of 0 as "no TTL".
  let clock = Date.parse('2030-06-01T00:00:00Z');
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const loads: string[] = [];
  const cache = new SlotCache({
    ttlMs: 1000,
    maxEntries,
    now: () => clock,
    load: async (date) => {
      loads.push(date);
      const v = `v${version}`;
      if (gate) await gate;
      return rows(v);
    },
  });
  return {
    cache,
    loads,
    bump: () => (version += 1),
    tick: (ms: number) => (clock += ms),
    holdLoads: () => (gate = new Promise<void>((r) => (open = r))),
    releaseLoads: () => {
      gate = undefined;
      open?.();
    },
  };
}

describe('SlotCache', () => {
  it('does not cache until the change listener is up, and empties itself when it goes down', async () => {
    const t = setup();
    await t.cache.get('2030-06-03');
    await t.cache.get('2030-06-03');
    expect(t.loads).toHaveLength(2);
    t.cache.setEnabled(true);
    await t.cache.get('2030-06-03');
    await t.cache.get('2030-06-03');
    expect(t.loads).toHaveLength(3);
    t.cache.setEnabled(false);
    await t.cache.get('2030-06-03');
    expect(t.loads).toHaveLength(4);
  });

  it('serves from memory until the date is invalidated or the entry is older than the TTL', async () => {
    const t = setup();
    t.cache.setEnabled(true);
    expect((await t.cache.get('2030-06-03')).blocks[0]!.reason).toBe('v0');
    t.bump();
    expect((await t.cache.get('2030-06-03')).blocks[0]!.reason).toBe('v0');
    t.cache.invalidate('2030-06-03');
    expect((await t.cache.get('2030-06-03')).blocks[0]!.reason).toBe('v1');
    t.bump();
    t.tick(1001);
    expect((await t.cache.get('2030-06-03')).blocks[0]!.reason).toBe('v2');
    t.cache.invalidate('2030-06-04');
    expect((await t.cache.get('2030-06-03')).blocks[0]!.reason).toBe('v2');
  });

  it('does not store a load that overlapped an invalidation of its date', async () => {
    const t = setup();
    t.cache.setEnabled(true);
    t.holdLoads();
    const pending = t.cache.get('2030-06-03');
    await Promise.resolve();
    t.cache.invalidate('2030-06-03'); // a change committed while the (older) read was in flight
    t.releaseLoads();
    await pending;
    await t.cache.get('2030-06-03');
    expect(t.loads).toHaveLength(2);
  });

  it('ages an entry from when its load started, and keeps at most maxEntries dates (least recently read goes)', async () => {
    const t = setup(2);
    t.cache.setEnabled(true);
    t.holdLoads();
    const pending = t.cache.get('2030-06-03');
    t.tick(600); // a slow read: its rows are as old as the moment it started
    t.releaseLoads();
    await pending;
    t.tick(401);
    await t.cache.get('2030-06-03');
    expect(t.loads).toEqual(['2030-06-03', '2030-06-03']);

    await t.cache.get('2030-06-04');
    await t.cache.get('2030-06-03');
    await t.cache.get('2030-06-05');
    await t.cache.get('2030-06-03');
    await t.cache.get('2030-06-04');
    expect(t.loads.slice(2)).toEqual(['2030-06-04', '2030-06-05', '2030-06-04']);
  });
});
