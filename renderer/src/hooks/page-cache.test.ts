import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache';

describe('PageCache', () => {
  it('serves rows by index from their page and reports missing pages of a range', () => {
    const cache = new PageCache<string>(10);
    expect(cache.missing(0, 25)).toEqual([0, 1, 2]);
    cache.store(1, Array.from({ length: 10 }, (_, i) => `row ${10 + i}`));
    expect(cache.row(13)).toBe('row 13');
    expect(cache.row(3)).toBeUndefined();
    expect(cache.missing(0, 25)).toEqual([0, 2]);
  });

  it('does not ask again for a page already loading', () => {
    const cache = new PageCache<number>(10);
    cache.markLoading(0);
    expect(cache.missing(0, 9)).toEqual([]);
    cache.cancel(0);
    expect(cache.missing(0, 9)).toEqual([0]);
  });

  it('keeps at most maxPages pages, dropping the least recently used', () => {
    const cache = new PageCache<number>(10, 3);
    for (const page of [0, 1, 2]) cache.store(page, [page]);
    cache.row(0); // page 0 is now the most recently used
    cache.store(3, [3]);
    expect(cache.size).toBe(3);
    expect(cache.row(10)).toBeUndefined(); // page 1 dropped
    expect(cache.row(0)).toBe(0);
  });

  it('stale pages stay visible until reloaded, and are reported missing', () => {
    const cache = new PageCache<string>(2);
    cache.store(0, ['a', 'b']);
    cache.invalidate();
    expect(cache.row(1)).toBe('b');
    expect(cache.missing(0, 1)).toEqual([0]);
    cache.store(0, ['a', 'c']);
    expect(cache.row(1)).toBe('c');
    expect(cache.missing(0, 1)).toEqual([]);
  });
});
