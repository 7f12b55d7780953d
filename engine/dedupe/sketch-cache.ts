/**
 * MinHash sketches by URL id for the near-duplicate candidate checks (IIR 19.6), in one slab of
 * typed memory: a bucket's members are checked against every new page that lands in it, so the
 * sketches of crowded buckets (shared boilerplate) are read again and again, and a miss costs a
 * read of the page's row. A sketch held as its own Uint32Array in a Map took about 450 heap bytes
 * (array buffer, view, map entry) and one object more for the GC to trace; here it is its 256
 * bytes in the slab and about 32 bytes of an id → slot table (typed arrays, two to four cells a slot).
 */
import { MINHASH_SIZE } from './shingles';

/** What {@link SketchCache.view} gives for a page held without a sketch (no values: it matches nothing). */
const EMPTY_SKETCH = new Uint32Array(0);

/** Sketches the slab holds: 98,304 of 256 bytes, 24 MiB (about every page's of a 100,000-page crawl). */
export const SKETCH_CACHE_SLOTS = 98_304;

/**
 * A bounded cache of sketches by URL id (a positive integer). When full, the oldest slot written
 * is reused (first in, first out). A sketch that is not MINHASH_SIZE values (a page without one,
 * read back empty) is held as empty. `get` returns a copy, so a slot reused later cannot change
 * what a caller holds; `view` does not copy, for a comparison made at once.
 */
export class SketchCache {
  private readonly values: Uint32Array;
  /** The URL id whose sketch each slot holds; -1 for none. */
  private readonly owners: Float64Array;
  /** 1 when a slot holds an empty sketch. */
  private readonly empty: Uint8Array;
  /**
   * URL id → slot, an open-addressing hash table with linear probing in typed arrays: `tableIds[i]`
   * the id (-1 for an empty cell; URL ids are positive) and `tableSlots[i]` its slot, at most
   * three-eighths full (2 cells a slot, rounded up to a power of two). A Map of
   * 98,304 number keys took about 0.7 µs a look-up (cache misses through its buckets and chains):
   * 64 candidates a page made it most of the near-duplicate check's cost.
   */
  private readonly tableIds: Float64Array;
  private readonly tableSlots: Int32Array;
  private readonly tableMask: number;
  private held = 0;
  private next = 0;

  /** @param slots sketches held at most ({@link SKETCH_CACHE_SLOTS}) */
  constructor(private readonly slots = SKETCH_CACHE_SLOTS) {
    this.values = new Uint32Array(slots * MINHASH_SIZE);
    this.owners = new Float64Array(slots).fill(-1);
    this.empty = new Uint8Array(slots);
    let cells = 16;
    while (cells < 2 * slots) cells *= 2;
    this.tableIds = new Float64Array(cells).fill(-1);
    this.tableSlots = new Int32Array(cells);
    this.tableMask = cells - 1;
  }

  /** Sketches held now. */
  get size(): number {
    return this.held;
  }

  /** The table cell where `urlId`'s probe starts (Fibonacci hashing of its low 32 bits, mixed with the rest). */
  private home(urlId: number): number {
    const low = urlId >>> 0;
    const high = Math.floor(urlId / 0x1_0000_0000);
    return (Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> 0) & this.tableMask;
  }

  /** The slot holding `urlId`'s sketch, or -1. */
  private slotOf(urlId: number): number {
    for (let cell = this.home(urlId); ; cell = (cell + 1) & this.tableMask) {
      const id = this.tableIds[cell]!;
      if (id === urlId) return this.tableSlots[cell]!;
      if (id === -1) return -1;
    }
  }

  /** Records `urlId` → `slot` (the id is not in the table). */
  private addToTable(urlId: number, slot: number): void {
    let cell = this.home(urlId);
    while (this.tableIds[cell] !== -1) cell = (cell + 1) & this.tableMask;
    this.tableIds[cell] = urlId;
    this.tableSlots[cell] = slot;
    this.held += 1;
  }

  /**
   * Removes `urlId` from the table (it is in it), shifting later cells of its probe run back so
   * that no look-up stops early at the emptied cell (linear probing's deletion without tombstones).
   */
  private removeFromTable(urlId: number): void {
    const mask = this.tableMask;
    let cell = this.home(urlId);
    while (this.tableIds[cell] !== urlId) cell = (cell + 1) & mask;
    let hole = cell;
    for (let next = (hole + 1) & mask; this.tableIds[next] !== -1; next = (next + 1) & mask) {
      const home = this.home(this.tableIds[next]!);
      // The entry at `next` may move into the hole when its home is not in (hole, next] (cyclically).
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      this.tableIds[hole] = this.tableIds[next]!;
      this.tableSlots[hole] = this.tableSlots[next]!;
      hole = next;
    }
    this.tableIds[hole] = -1;
    this.held -= 1;
  }

  /** A copy of the sketch held for `urlId` ({@link view}'s values in an array of its own), or undefined. */
  get(urlId: number): Uint32Array | undefined {
    return this.view(urlId)?.slice();
  }

  /**
   * The sketch held for `urlId` as a view of the slab (no copy), or undefined; an empty sketch
   * for a page held without one. Valid only until the next {@link set} (which may reuse its slot):
   * for a comparison made at once. A near-duplicate check reads up to 64 candidate sketches a page
   * (DEFAULT_MAX_CANDIDATES); as copies ({@link get}), the 100,000-page synthetic crawl's store
   * writer spent 14.4 of its 162 busy seconds making them (CPU profile).
   */
  view(urlId: number): Uint32Array | undefined {
    const slot = this.slotOf(urlId);
    if (slot === -1) return undefined;
    if (this.empty[slot] === 1) return EMPTY_SKETCH;
    return this.values.subarray(slot * MINHASH_SIZE, (slot + 1) * MINHASH_SIZE);
  }

  /**
   * How many positions `sketch` and the sketch held for `urlId` agree on (estimatedJaccard of the
   * two × MINHASH_SIZE), read in the slab without a view; -1 when `urlId` is not held, 0 when either
   * is not MINHASH_SIZE values (a page held without a sketch). The count is exact when it reaches
   * `enough`; once the positions left cannot bring it there, the comparison stops and returns a
   * smaller count. The near-duplicate check compares up to 64 candidates a page, each a random
   * 256 bytes of the slab: most differ within their first cache line, so stopping there reads a
   * quarter of the memory (and made no view, 6.4M short-lived objects at 100,000 pages).
   * @param enough the count the caller needs (0 to MINHASH_SIZE; MINHASH_SIZE + 1 stops at once)
   */
  equalValues(urlId: number, sketch: Uint32Array, enough = 0): number {
    const slot = this.slotOf(urlId);
    if (slot === -1) return -1;
    if (this.empty[slot] === 1 || sketch.length !== MINHASH_SIZE) return 0;
    const values = this.values;
    const start = slot * MINHASH_SIZE;
    // Positions that may differ before `enough` is out of reach.
    let spare = MINHASH_SIZE - enough;
    let equal = 0;
    for (let i = 0; i < MINHASH_SIZE; i += 1) {
      if (values[start + i] === sketch[i]) equal += 1;
      else if (--spare < 0) return equal;
    }
    return equal;
  }

  /** Holds `sketch` for `urlId` (its values are copied), replacing the one held. */
  set(urlId: number, sketch: Uint32Array): void {
    let slot = this.slotOf(urlId);
    if (slot === -1) {
      slot = this.next;
      this.next = (this.next + 1) % this.slots;
      const evicted = this.owners[slot]!;
      if (evicted !== -1) this.removeFromTable(evicted);
      this.owners[slot] = urlId;
      this.addToTable(urlId, slot);
    }
    if (sketch.length === MINHASH_SIZE) {
      this.values.set(sketch, slot * MINHASH_SIZE);
      this.empty[slot] = 0;
    } else this.empty[slot] = 1;
  }
}
