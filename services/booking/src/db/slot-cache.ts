/**
 * Per-replica cache of the slot lists (the hottest read: every step of the booking dialog asks for one).
 *
 * Correctness comes first:
 *  - A cached entry holds the date's blocks and unreleased reservations, not the answer: "Time has passed" and hold
 *    expiry are decided per request with the current clock (slotStates), so time never makes an entry stale.
 *  - Every change to slot_reservations or time_slots, by anyone, NOTIFYs `booking_slots` with its date when it
 *    commits (trigger, migration slot_change_notify); each replica LISTENs and drops that date.
 *  - Writes made through this replica drop their dates synchronously after commit, so a caller's next read (the
 *    "slot lists reflect it as soon as that call returns" rule) never depends on notification timing.
 *  - No LISTEN connection, no cache: while it is down (or reconnecting, when notifications may have been missed)
 *    every read goes to Postgres and the cache is emptied.
 *  - A load that overlaps an invalidation of its date is not stored (generation check), and entries live at most
 *    `ttlMs` as a last resort.
 */
import { LRUCache } from 'lru-cache';
import type { SlotRows } from './slots';

export interface SlotCacheOptions {
  load(date: string): Promise<SlotRows>;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class SlotCache {
  private readonly entries: LRUCache<string, SlotRows>;
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private enabled = false;
  private readonly maxEntries: number;
  private readonly now: () => number;
  hits = 0;
  misses = 0;

  constructor(private readonly options: SlotCacheOptions) {
    this.maxEntries = options.maxEntries ?? 2_000;
    this.now = options.now ?? Date.now;
    // The options' clock is the cache's clock (tests move it), read on every lookup (no 1 ms resolution).
    this.entries = new LRUCache<string, SlotRows>({
      max: this.maxEntries,
      ttl: options.ttlMs ?? 5_000,
      ttlResolution: 0,
      perf: { now: this.now },
    });
  }

  /** Called with the LISTEN connection's state. */
  setEnabled(enabled: boolean): void {
    if (this.enabled !== enabled) {
      this.enabled = enabled;
      this.clear();
    }
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  async get(date: string): Promise<SlotRows> {
    if (!this.enabled) {
      this.misses += 1;
      return this.options.load(date);
    }
    const hit = this.entries.get(date);
    if (hit) {
      this.hits += 1;
      return hit;
    }
    this.misses += 1;
    const epoch = this.epoch;
    const generation = this.generations.get(date) ?? 0;
    const at = this.now();
    const rows = await this.options.load(date);
    if (this.enabled && epoch === this.epoch && generation === (this.generations.get(date) ?? 0)) {
      // Aged from when the load started: the rows are at least that old.
      this.entries.set(date, rows, { start: at });
    }
    return rows;
  }

  /** Drops the dates (a committed change, local or notified). */
  invalidate(...dates: string[]): void {
    for (const date of dates) {
      this.entries.delete(date);
      this.generations.set(date, (this.generations.get(date) ?? 0) + 1);
      if (this.generations.size > this.maxEntries * 4) {
        // Bounded memory: forgetting generations is safe once every in-flight load is invalidated too.
        this.generations.clear();
        this.epoch += 1;
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.generations.clear();
    this.epoch += 1;
  }
}
