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
