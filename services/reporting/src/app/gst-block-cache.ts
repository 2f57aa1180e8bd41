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
 * Bounded by bytes (lru-cache: least recently used go first). Each replica has its own; nothing to invalidate by
 * hand (a rebuild gives every block a new revision).
 */
import { LRUCache } from 'lru-cache';
import type { GstBlockRef } from '../db/reports';
import { inPeriod, type Period } from '../domain/period';

/** A day block held: its (kind, day, revision) and its rows as UTF-8. */
export interface CachedBlock extends GstBlockRef {
  body: Buffer;
}

/** Default budget: a two-year history of 200,000 GST rows takes about 34 MB. */
export const DEFAULT_GST_CACHE_BYTES = 128 * 1024 * 1024;

const keyOf = (kind: string, day: string) => `${kind}|${day}`;

export class GstBlockCache {
  /** None with a budget of 0 (GST_BLOCK_CACHE_MB=0): every block is read from Postgres every time. */
  private readonly blocks: LRUCache<string, CachedBlock> | undefined;

  constructor(readonly maxBytes: number = DEFAULT_GST_CACHE_BYTES) {
    this.blocks =
      maxBytes > 0
        ? new LRUCache<string, CachedBlock>({
            maxSize: maxBytes,
            // lru-cache counts sizes from 1; a block always holds at least one row anyway.
            sizeCalculation: (block) => Math.max(1, block.body.length),
          })
        : undefined;
  }

  get bytes(): number {
    return this.blocks?.calculatedSize ?? 0;
  }

  get size(): number {
    return this.blocks?.size ?? 0;
  }

  /** The blocks held for days in the period, keyed by kind and day (a snapshot: later evictions do not affect it). */
  inPeriod(period: Period): Map<string, CachedBlock> {
    const found = new Map<string, CachedBlock>();
    if (!this.blocks) return found;
    // Iterating does not count as a use (only touch does).
    for (const [key, block] of this.blocks.entries()) if (inPeriod(block.day, period)) found.set(key, block);
    return found;
  }

  /** Marks a block as just used (unless the cache has since replaced or dropped it). */
  touch(block: CachedBlock): void {
    const key = keyOf(block.kind, block.day);
    if (this.blocks?.peek(key) === block) this.blocks.get(key);
  }

  /**
   * Holds a block (replacing an older revision of it), evicting the least recently used beyond the budget. A block
   * bigger than the whole budget is not held (and an older revision of it is dropped).
   */
  put(block: CachedBlock): void {
    this.blocks?.set(keyOf(block.kind, block.day), block);
  }

  static key = keyOf;
}
