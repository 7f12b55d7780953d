/**
 * MinHash sketches by URL id for the near-duplicate candidate checks (IIR 19.6), in one slab of
 * typed memory: a bucket's members are checked against every new page that lands in it, so the
 * sketches of crowded buckets (shared boilerplate) are read again and again, and a miss costs a
 * read of the page's row. A sketch held as its own Uint32Array in a Map took about 450 heap bytes
 * (array buffer, view, map entry) and one object more for the GC to trace; here it is its 256
 * bytes in the slab and one small-integer map entry.
 */
import { MINHASH_SIZE } from './shingles';

/** What {@link SketchCache.view} gives for a page held without a sketch (no values: it matches nothing). */
const EMPTY_SKETCH = new Uint32Array(0);

/** Sketches the slab holds: 98,304 of 256 bytes, 24 MiB (about every page's of a 100,000-page crawl). */
export const SKETCH_CACHE_SLOTS = 98_304;

/**
 * A bounded cache of sketches by URL id. When full, the oldest slot written is reused (first in,
 * first out). A sketch that is not MINHASH_SIZE values (a page without one, read back empty) is
 * held as empty. `get` returns a copy, so a slot reused later cannot change what a caller holds.
 */
export class SketchCache {
  private readonly values: Uint32Array;
  /** The URL id whose sketch each slot holds; -1 for none. */
  private readonly owners: Float64Array;
  /** 1 when a slot holds an empty sketch. */
  private readonly empty: Uint8Array;
  private readonly slotOf = new Map<number, number>();
  private next = 0;

  /** @param slots sketches held at most ({@link SKETCH_CACHE_SLOTS}) */
  constructor(private readonly slots = SKETCH_CACHE_SLOTS) {
    this.values = new Uint32Array(slots * MINHASH_SIZE);
    this.owners = new Float64Array(slots).fill(-1);
    this.empty = new Uint8Array(slots);
  }

  /** Sketches held now. */
  get size(): number {
    return this.slotOf.size;
  }

  /** A copy of the sketch held for `urlId`, or undefined. */
  get(urlId: number): Uint32Array | undefined {
    const slot = this.slotOf.get(urlId);
    if (slot === undefined) return undefined;
    if (this.empty[slot] === 1) return new Uint32Array(0);
    return this.values.slice(slot * MINHASH_SIZE, (slot + 1) * MINHASH_SIZE);
  }

  /**
   * The sketch held for `urlId` as a view of the slab (no copy), or undefined; an empty sketch
   * for a page held without one. Valid only until the next {@link set} (which may reuse its slot):
   * for a comparison made at once. A near-duplicate check reads up to 64 candidate sketches a page
   * (DEFAULT_MAX_CANDIDATES); as copies ({@link get}), the 100,000-page synthetic crawl's store
   * writer spent 14.4 of its 162 busy seconds making them (CPU profile), and the copies were most
   * of the 36–44 MB of array buffers it held.
   */
  view(urlId: number): Uint32Array | undefined {
    const slot = this.slotOf.get(urlId);
    if (slot === undefined) return undefined;
    if (this.empty[slot] === 1) return EMPTY_SKETCH;
    return this.values.subarray(slot * MINHASH_SIZE, (slot + 1) * MINHASH_SIZE);
  }

  /** Holds `sketch` for `urlId` (its values are copied), replacing the one held. */
  set(urlId: number, sketch: Uint32Array): void {
    let slot = this.slotOf.get(urlId);
    if (slot === undefined) {
      slot = this.next;
      this.next = (this.next + 1) % this.slots;
      const evicted = this.owners[slot]!;
      if (evicted !== -1) this.slotOf.delete(evicted);
      this.owners[slot] = urlId;
      this.slotOf.set(urlId, slot);
    }
    if (sketch.length === MINHASH_SIZE) {
      this.values.set(sketch, slot * MINHASH_SIZE);
      this.empty[slot] = 0;
    } else this.empty[slot] = 1;
  }
}
