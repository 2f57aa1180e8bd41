import { GstBlockCache, type CachedBlock } from './gst-block-cache';

const block = (
  day: string,
  revision: string,
  bytes = 10,
  kind: 'customer' | 'purchase' = 'customer',
): CachedBlock => ({
  kind,
  day,
  revision,
  body: Buffer.alloc(bytes, 'x'),
});

describe('GST block cache', () => {
  it('hands out the blocks of a period, by kind and day', () => {
    const cache = new GstBlockCache(1_000);
    cache.put(block('2026-06-30', '1'));
    cache.put(block('2026-07-01', '2'));
    cache.put(block('2026-07-01', '3', 10, 'purchase'));
    cache.put(block('2026-10-01', '4'));
    const q3 = cache.inPeriod({ startDate: '2026-07-01', endDate: '2026-09-30' });
    expect([...q3.keys()].sort()).toEqual(['customer|2026-07-01', 'purchase|2026-07-01']);
    expect(cache.inPeriod({}).size).toBe(4);
    expect(cache.inPeriod({ endDate: '2026-06-30' }).get('customer|2026-06-30')?.revision).toBe('1');
  });

  it('replaces an older revision of a block', () => {
    const cache = new GstBlockCache(1_000);
    cache.put(block('2026-07-01', '1', 10));
    cache.put(block('2026-07-01', '9', 25));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(25);
    expect(cache.inPeriod({}).get('customer|2026-07-01')?.revision).toBe('9');
  });

  it('stays within its byte budget, evicting the least recently used first', () => {
    const cache = new GstBlockCache(30);
    const a = block('2026-07-01', '1');
    cache.put(a);
    cache.put(block('2026-07-02', '2'));
    cache.put(block('2026-07-03', '3'));
    cache.touch(a); // a is now the most recently used
    cache.put(block('2026-07-04', '4'));
    expect(cache.bytes).toBe(30);
    expect([...cache.inPeriod({}).keys()].sort()).toEqual([
      'customer|2026-07-01',
      'customer|2026-07-03',
      'customer|2026-07-04',
    ]);
    cache.put(block('2026-07-05', '5', 31)); // bigger than the whole budget: not held
    expect(cache.size).toBe(3);
  });

  it('keeps a snapshot handed out intact when blocks are evicted afterwards', () => {
    const cache = new GstBlockCache(10);
    cache.put(block('2026-07-01', '1'));
    const held = cache.inPeriod({});
    cache.put(block('2026-07-02', '2'));
    expect(cache.size).toBe(1);
    expect(held.get('customer|2026-07-01')?.body.length).toBe(10);
  });

  it('holds nothing with a budget of 0 (GST_BLOCK_CACHE_MB=0)', () => {
    const cache = new GstBlockCache(0);
    const a = block('2026-07-01', '1');
    cache.put(a);
    cache.touch(a);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.inPeriod({}).size).toBe(0);
  });
});
