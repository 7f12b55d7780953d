import { describe, expect, it } from 'vitest';
import { SEEN_CACHE_ENTRIES, seenCache, seenEntry, seenEntryId, seenEntrySources } from './seen-cache';

describe('seenCache', () => {
  it('holds normalized keys with their seenEntry (id and source bits), up to SEEN_CACHE_ENTRIES', () => {
    const cache = seenCache();
    const key = (i: number) => `00000000-0000-5000-8000-${i.toString(16).padStart(12, '0')}`;
    for (let i = 1; i <= SEEN_CACHE_ENTRIES + 10_000; i += 1) cache.set(key(i), seenEntry(i, i % 32));
    expect(cache.size).toBe(SEEN_CACHE_ENTRIES);
    // 5.2 MiB, as SEEN_CACHE_ENTRIES says: 17 bytes an entry, and a table at most half full.
    expect(cache.bytes).toBe(SEEN_CACHE_ENTRIES * 17 + 524_288 * 4);
    // The newest key is held; ids past 2^31 survive (float64 values).
    const newest = cache.get(key(SEEN_CACHE_ENTRIES + 10_000))!;
    expect(seenEntryId(newest)).toBe(SEEN_CACHE_ENTRIES + 10_000);
    expect(seenEntrySources(newest)).toBe((SEEN_CACHE_ENTRIES + 10_000) % 32);
    cache.set('big', seenEntry(2 ** 40, 5));
    expect(seenEntryId(cache.get('big')!)).toBe(2 ** 40);
  });

  it('keeps a key that is read often, even as new keys stream in', () => {
    const cache = seenCache();
    cache.set('hot', 1);
    for (let i = 0; i < 2 * SEEN_CACHE_ENTRIES; i += 1) {
      cache.set(`k${i}`, i);
      expect(cache.get('hot')).toBe(1);
    }
  });
});

describe('BoundedCache by bytes', () => {
  it('holds at most maxBytes however long the keys are, and never stores an entry over half of it', async () => {
    const { BoundedCache } = await import('./seen-cache');
    const cache = new BoundedCache<number>({ maxEntries: 50_000, maxBytes: 1_000_000 });
    const long = 'x'.repeat(60 * 1024);
    for (let i = 0; i < 2_000; i += 1) cache.set(`${i}${long.slice(0, 10_000)}`, i);
    expect(cache.bytes).toBeLessThanOrEqual(1_000_000);
    expect(cache.size).toBeLessThan(100);
    expect(cache.get(`1999${long.slice(0, 10_000)}`)).toBe(1999);
    cache.set(`huge${long.repeat(5)}`, 1);
    expect(cache.get(`huge${long.repeat(5)}`)).toBeUndefined();
  });

  it('counts a key set twice once', async () => {
    const { BoundedCache } = await import('./seen-cache');
    const cache = new BoundedCache<number>({ maxBytes: 10_000 });
    for (let i = 0; i < 100; i += 1) cache.set('same', i);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(2 * 4 + 24 + 64);
  });

  it('keeps its entry and byte bounds under reads and new entries, and keeps a key read after every new one', async () => {
    const { BoundedCache } = await import('./seen-cache');
    // 10 bytes an entry, 40 at most: four entries held at a time (by bytes).
    const cache = new BoundedCache<number>({ maxEntries: 100, maxBytes: 40, sizeOf: () => 10 });
    const keys = ['a', 'b', 'c', 'd', 'e'];
    for (const key of keys) cache.set(key, key.charCodeAt(0));
    let hits = 0;
    for (let round = 0; round < 200; round += 1) {
      const key = keys[(round * 3) % keys.length]!;
      const got = cache.get(key);
      if (got !== undefined) {
        hits += 1;
        expect(got).toBe(key.charCodeAt(0));
      } else cache.set(key, key.charCodeAt(0));
      expect(cache.bytes).toBeLessThanOrEqual(40);
      expect(cache.size).toBeLessThanOrEqual(4);
    }
    expect(hits).toBeGreaterThan(0);
    // A key read after every new one stays (each read marks it before the hand comes back).
    cache.set('hot', 1);
    for (let i = 0; i < 100; i += 1) {
      cache.set(`k${i}`, i);
      expect(cache.get('hot')).toBe(1);
      expect(cache.bytes).toBeLessThanOrEqual(40);
    }
  });

  it('evicts by CLOCK: an entry read since the hand last passed gets a second chance, one never read goes first', async () => {
    const { BoundedCache } = await import('./seen-cache');
    const cache = new BoundedCache<number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    // The hand passed a (read: mark cleared, kept) and evicted b (never read).
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
    cache.set('e', 5);
    // a, c and d were all read since: the hand clears c's, a's and d's marks, then evicts c, the first it meets again.
    expect(cache.get('c')).toBeUndefined();
    expect(cache.size).toBe(3);
    expect(cache.get('e')).toBe(5);
  });

  it('makes room for an entry that grows in place without evicting it, and reuses the slots it freed', async () => {
    const { BoundedCache } = await import('./seen-cache');
    const cache = new BoundedCache<number, string>({ maxEntries: 4, maxBytes: 100, sizeOf: (_key, value) => value });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 20);
    expect(cache.bytes).toBe(80);
    cache.set('a', 50);
    expect(cache.get('a')).toBe(50);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(cache.size).toBeLessThan(4);
    // The slot emptied for bytes takes the next entry: four entries again, none evicted for it.
    const held = ['a', 'b', 'c', 'd'].filter((key) => cache.get(key) !== undefined);
    cache.set('w', 10);
    expect(cache.size).toBe(4);
    expect([...held, 'w'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true, true]);
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });

  it('agrees with a plain Map on every hit, and stays within its bounds, under random sets and gets of random sizes', async () => {
    const { BoundedCache } = await import('./seen-cache');
    const cache = new BoundedCache<number, number>({ maxEntries: 50, maxBytes: 2_000, sizeOf: (key, value) => 8 + (value % 97) });
    const model = new Map<number, number>();
    let x = 7;
    let hits = 0;
    for (let step = 0; step < 20_000; step += 1) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      const key = (x >>> 16) % 120;
      if ((x >>> 8) % 3 === 0) {
        const value = (x >>> 4) % 10_000;
        cache.set(key, value);
        model.set(key, value);
      } else {
        const got = cache.get(key);
        if (got !== undefined) {
          hits += 1;
          expect(got).toBe(model.get(key));
        }
      }
      expect(cache.size).toBeLessThanOrEqual(50);
      expect(cache.bytes).toBeLessThanOrEqual(2_000);
    }
    expect(hits).toBeGreaterThan(1_000);
  });
});
