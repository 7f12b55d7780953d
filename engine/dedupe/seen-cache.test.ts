import { describe, expect, it } from 'vitest';
import { SeenCache } from './seen-cache';

describe('SeenCache', () => {
  it('returns what was set and never holds more than its capacity', () => {
    const cache = new SeenCache(100);
    for (let i = 0; i < 1000; i += 1) cache.set(`k${i}`, i);
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.get('k999')).toBe(999);
    expect(cache.get('k0')).toBeUndefined();
  });

  it('keeps a key that is read often (promotion), even as new keys stream in', () => {
    const cache = new SeenCache(100);
    cache.set('hot', 1);
    for (let i = 0; i < 1000; i += 1) {
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

  it('keeps its entry and byte bounds while hits move entries between generations', async () => {
    const { BoundedCache } = await import('./seen-cache');
    // 10 bytes an entry, 40 at most: two generations of 2 entries (by bytes) each.
    const cache = new BoundedCache<number>({ maxEntries: 100, maxBytes: 40, sizeOf: () => 10 });
    const keys = ['a', 'b', 'c', 'd', 'e'];
    for (const key of keys) cache.set(key, key.charCodeAt(0));
    let hits = 0;
    for (let round = 0; round < 200; round += 1) {
      // A hit in the old generation moves into the young one, which rotates when full.
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
    // A key read after every new one stays (each read promotes it before its generation is dropped).
    cache.set('hot', 1);
    for (let i = 0; i < 100; i += 1) {
      cache.set(`k${i}`, i);
      expect(cache.get('hot')).toBe(1);
      expect(cache.bytes).toBeLessThanOrEqual(40);
    }
  });
});
