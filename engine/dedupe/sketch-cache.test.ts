/** The sketch slab (sketch-cache.ts): copies in and out, empty sketches, first-in-first-out reuse of its slots. */
import { describe, expect, it } from 'vitest';
import { MINHASH_SIZE } from './shingles';
import { SketchCache } from './sketch-cache';

const sketch = (seed: number) => Uint32Array.from({ length: MINHASH_SIZE }, (_, i) => (seed * 7919 + i) >>> 0);

describe('SketchCache', () => {
  it('gives back a copy of what was set, and a later set of the same id replaces it', () => {
    const cache = new SketchCache(4);
    const given = sketch(1);
    cache.set(10, given);
    given[0] = 999;
    const got = cache.get(10)!;
    expect(Array.from(got)).toEqual(Array.from(sketch(1)));
    got[1] = 12345;
    expect(Array.from(cache.get(10)!)).toEqual(Array.from(sketch(1)));
    cache.set(10, sketch(2));
    expect(Array.from(cache.get(10)!)).toEqual(Array.from(sketch(2)));
    expect(cache.size).toBe(1);
    expect(cache.get(11)).toBeUndefined();
  });

  it('holds an empty sketch (a page without one) as empty', () => {
    const cache = new SketchCache(4);
    cache.set(1, new Uint32Array(0));
    expect(cache.get(1)).toEqual(new Uint32Array(0));
    cache.set(1, sketch(3));
    expect(Array.from(cache.get(1)!)).toEqual(Array.from(sketch(3)));
  });

  it('reuses the oldest slot when full, and a copy taken before keeps its values', () => {
    const cache = new SketchCache(3);
    for (const id of [1, 2, 3]) cache.set(id, sketch(id));
    const held = cache.get(1)!;
    cache.set(4, sketch(4));
    expect(cache.get(1)).toBeUndefined();
    expect(Array.from(held)).toEqual(Array.from(sketch(1)));
    expect([2, 3, 4].map((id) => Array.from(cache.get(id)!))).toEqual([2, 3, 4].map((id) => Array.from(sketch(id))));
    expect(cache.size).toBe(3);
  });

  it('views a held sketch in place: its values, empty for a page without one, undefined once evicted; a set of its slot changes it', () => {
    const cache = new SketchCache(2);
    cache.set(1, sketch(1));
    cache.set(2, new Uint32Array(0));
    const view = cache.view(1)!;
    expect(Array.from(view)).toEqual(Array.from(sketch(1)));
    expect(cache.view(2)).toEqual(new Uint32Array(0));
    expect(cache.view(3)).toBeUndefined();
    // Slot of id 1 reused: the view now shows id 3's values (why it is only for a comparison made at once).
    cache.set(3, sketch(3));
    expect(cache.view(1)).toBeUndefined();
    expect(Array.from(view)).toEqual(Array.from(sketch(3)));
  });

  it('counts the positions a sketch shares with a held one, exactly from `enough` up, and stops below it', () => {
    const cache = new SketchCache(4);
    const held = sketch(1);
    cache.set(1, held);
    cache.set(2, new Uint32Array(0));
    const other = Uint32Array.from(held);
    // Differs in 10 positions: the first four and six spread over the rest.
    for (const at of [0, 1, 2, 3, 20, 30, 40, 50, 60, 63]) other[at] = other[at]! + 1;
    expect(cache.equalValues(1, other)).toBe(MINHASH_SIZE - 10);
    expect(cache.equalValues(1, other, MINHASH_SIZE - 10)).toBe(MINHASH_SIZE - 10);
    // Out of reach: some count below what was asked for (here it stops at the fourth difference, before any equal position).
    const short = cache.equalValues(1, other, MINHASH_SIZE - 3);
    expect(short).toBeLessThan(MINHASH_SIZE - 3);
    expect(short).toBe(0);
    expect(cache.equalValues(1, held, MINHASH_SIZE)).toBe(MINHASH_SIZE);
    expect(cache.equalValues(1, held, MINHASH_SIZE + 1)).toBeLessThanOrEqual(MINHASH_SIZE);
    expect(cache.equalValues(2, held)).toBe(0);
    expect(cache.equalValues(1, new Uint32Array(0))).toBe(0);
    expect(cache.equalValues(3, held)).toBe(-1);
  });

  it('agrees with a first-in-first-out model under random sets, replacements and look-ups, ids past 2^32 included', () => {
    const slots = 50;
    const cache = new SketchCache(slots);
    const model = new Map<number, number>();
    const order: number[] = [];
    let x = 5;
    const next = () => (x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0);
    for (let step = 0; step < 30_000; step += 1) {
      const r = next();
      // Ids from a range four times the slots, a few of them above 2^32 (SQLite ids are 64-bit).
      const small = 1 + ((r >>> 8) % (4 * slots));
      const id = (r >>> 4) % 10 === 0 ? 2 ** 32 + small * 7 : small;
      if ((r >>> 20) % 2 === 0) {
        const seed = next();
        if (!model.has(id)) {
          if (order.length === slots) model.delete(order.shift()!);
          order.push(id);
        }
        model.set(id, seed);
        cache.set(id, seed % 5 === 0 ? new Uint32Array(0) : sketch(seed));
      } else {
        const seed = model.get(id);
        const view = cache.view(id);
        if (seed === undefined) expect(view).toBeUndefined();
        else expect(Array.from(view!)).toEqual(seed % 5 === 0 ? [] : Array.from(sketch(seed)));
      }
      expect(cache.size).toBe(model.size);
    }
  });
});
