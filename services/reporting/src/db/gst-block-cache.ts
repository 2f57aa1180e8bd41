/**
 * The GST route's cache of day blocks (`gst_day_blocks.rows`), already encoded as UTF-8 bytes.
 *
 * A whole-history GST report lists every invoice, purchase and expense: tens of megabytes. Reading all of it from
 * Postgres and encoding it again for every request costs far more than the report's query. Each block carries a
 * `revision` that changes (from a sequence) whenever its content changes, so a block is reusable exactly as long
 * as the database still holds that revision. The report query sends the (kind, day, revision) of the blocks held
 * here and gets back the current list of blocks in the period, with the content only of those it does not hold
 * (one statement, one snapshot): the answer is always the database's current state, never a stale copy.
 *
 * Bounded by bytes (least recently used go first). Each replica has its own; nothing to invalidate by hand (a
 * rebuild gives every block a new revision).
 */
import type { IsoDate } from '../domain/dates';
import { inPeriod, type Period } from '../domain/period';

export type GstBlockKind = 'customer' | 'purchase';

export interface CachedBlock {
  kind: GstBlockKind;
  day: IsoDate;
  revision: string;
  body: Buffer;
}

/** Default budget: a two-year history of 200,000 GST rows takes about 34 MB. */
export const DEFAULT_GST_CACHE_BYTES = 128 * 1024 * 1024;

const keyOf = (kind: string, day: string) => `${kind}|${day}`;

export class GstBlockCache {
  /** Insertion order is recency order (a hit is moved to the end). */
  private readonly blocks = new Map<string, CachedBlock>();
  private held = 0;

  constructor(readonly maxBytes: number = DEFAULT_GST_CACHE_BYTES) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.blocks.size;
  }

  /** The blocks held for days in the period, keyed by kind and day (a snapshot: later evictions do not affect it). */
  inPeriod(period: Period): Map<string, CachedBlock> {
    const found = new Map<string, CachedBlock>();
    for (const [key, block] of this.blocks) if (inPeriod(block.day, period)) found.set(key, block);
    return found;
  }

  /** Marks a block as just used. */
  touch(block: CachedBlock): void {
    const key = keyOf(block.kind, block.day);
    if (this.blocks.get(key) !== block) return;
    this.blocks.delete(key);
    this.blocks.set(key, block);
  }

  /** Holds a block (replacing an older revision of it), evicting the least recently used beyond the budget. */
  put(block: CachedBlock): void {
    const key = keyOf(block.kind, block.day);
    const old = this.blocks.get(key);
    if (old) {
      this.blocks.delete(key);
      this.held -= old.body.length;
    }
    if (block.body.length > this.maxBytes) return;
    this.blocks.set(key, block);
    this.held += block.body.length;
    for (const [k, b] of this.blocks) {
      if (this.held <= this.maxBytes) break;
      this.blocks.delete(k);
      this.held -= b.body.length;
    }
  }

  static key = keyOf;
}
