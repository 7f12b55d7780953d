/**
 * A crawl's LSH band rows (IIR 19.6) in memory, for the near-duplicate probes of the content-seen
 * test: each row (band, bucket, URL id) in one sorted run of typed arrays, so a probe is a binary
 * search and a read of the bucket's members, in the order the store's index keeps them (band,
 * bucket, URL id). A SQLite probe of `minhash_bands` cost a B-tree seek and its page reads on the
 * writer thread: 12–13% of that thread at 20,200 and at 100,000 synthetic pages (CPU profiles,
 * 2026-11-24), while the index answers from about 12 bytes a row.
 *
 * Bounded by bytes ({@link BAND_INDEX_MAX_BYTES}): a crawl that grows past it drops the index for
 * good (`complete` false) and its store goes back to probing the table, with the same answers.
 */

/** Bytes the sorted run may take: 32 MiB, about 2.8M rows (16 a page: some 175,000 pages). */
export const BAND_INDEX_MAX_BYTES = 32 * 1024 * 1024;

/** Bytes a row takes: its key (float64) and URL id (uint32). */
const ROW_BYTES = 12;

/** Largest URL id a row holds (uint32); a larger one drops the index. */
const MAX_URL_ID = 0xffff_ffff;

/**
 * One band's bucket as one number ordered as (band, bucket) with the bucket signed, as SQLite
 * orders the table's INTEGER columns: exact for band < 2^20.
 */
export function bandKey(band: number, bucket: number): number {
  return band * 0x1_0000_0000 + (bucket + 0x8000_0000);
}

/** The band of a {@link bandKey}. */
export function bandOfKey(key: number): number {
  return Math.floor(key / 0x1_0000_0000);
}

/** The (signed 32-bit) bucket of a {@link bandKey}. */
export function bucketOfKey(key: number): number {
  return key - bandOfKey(key) * 0x1_0000_0000 - 0x8000_0000;
}

/**
 * Band rows of one crawl, sorted by (band, bucket, URL id); rows are added as sorted runs
 * (a flush of the pending rows, or the stored rows when a run opens) and merged in linear time.
 */
export class BandIndex {
  private keys = new Float64Array(0);
  private ids = new Uint32Array(0);
  private size = 0;
  private dropped = false;

  /**
   * Allocates the arrays at the bound, once: the OS backs only the pages the rows reach (zeroed
   * memory is mapped on first write), and a merge never copies the run into grown arrays. Grown by
   * a quarter at a time, at 100,000 synthetic pages (1.6M rows, 19 MB) each growth held the old and
   * the new arrays together, up to 43 MB, at the writer's busiest moment.
   * @param maxBytes bytes the rows may take ({@link BAND_INDEX_MAX_BYTES}); 0 keeps no index
   */
  constructor(private readonly maxBytes = BAND_INDEX_MAX_BYTES) {
    if (maxBytes < ROW_BYTES) {
      this.drop();
      return;
    }
    const capacity = Math.floor(maxBytes / ROW_BYTES);
    this.keys = new Float64Array(capacity);
    this.ids = new Uint32Array(capacity);
  }

  /** False once the index outgrew its bytes (or a URL id its column): ask the store instead. */
  get complete(): boolean {
    return !this.dropped;
  }

  /** Rows held (0 once dropped). */
  get rows(): number {
    return this.size;
  }

  /** Bytes the arrays reserve (their capacity, the bound; the OS backs about 12 a row held), 0 once dropped. */
  get bytes(): number {
    return this.keys.byteLength + this.ids.byteLength;
  }

  /**
   * Merges `count` rows into the run; `rowAt(i)` gives row i, the rows in (band, bucket, URL id)
   * order (an unsorted run is sorted first). A row already held stays once. Drops the index when
   * the rows would pass its bytes.
   */
  addSorted(count: number, rowAt: (index: number) => readonly [band: number, bucket: number, urlId: number]): void {
    if (this.dropped || count === 0) return;
    const keys = new Float64Array(count);
    const ids = new Float64Array(count);
    for (let index = 0; index < count; index += 1) {
      const [band, bucket, urlId] = rowAt(index);
      keys[index] = bandKey(band, bucket);
      ids[index] = urlId;
    }
    this.addSortedKeys(keys, ids);
  }

  /**
   * {@link addSorted} of rows given as columns: row i is ({@link bandKey} `keys[i]`, URL id
   * `ids[i]`), in (key, URL id) order as PendingBands.flush gives them (an unsorted run is sorted
   * first). The arrays are not kept.
   */
  addSortedKeys(keys: Float64Array, ids: Float64Array): void {
    const count = keys.length;
    if (this.dropped || count === 0) return;
    if ((this.size + count) * ROW_BYTES > this.maxBytes) {
      this.drop();
      return;
    }
    const runKeys = Float64Array.from(keys);
    const runIds = new Uint32Array(count);
    let sorted = true;
    for (let index = 0; index < count; index += 1) {
      const urlId = ids[index]!;
      if (urlId > MAX_URL_ID || urlId < 0) {
        this.drop();
        return;
      }
      runIds[index] = urlId;
      if (index > 0 && (runKeys[index - 1]! > runKeys[index]! || (runKeys[index - 1] === runKeys[index] && runIds[index - 1]! > runIds[index]!))) sorted = false;
    }
    if (!sorted) this.sortRun(runKeys, runIds);
    this.merge(runKeys, runIds);
  }

  /**
   * True when {@link addSortedKeys} would take these rows without dropping the index: it is
   * complete, they fit in its bytes, and every URL id fits its column.
   */
  accepts(keys: Float64Array, ids: Float64Array): boolean {
    if (this.dropped) return false;
    if ((this.size + keys.length) * ROW_BYTES > this.maxBytes) return false;
    for (let index = 0; index < ids.length; index += 1) if (ids[index]! > MAX_URL_ID || ids[index]! < 0) return false;
    return true;
  }

  /** The {@link bandKey} of row `index` (0 ≤ index < {@link rows}, in (band, bucket, URL id) order). */
  keyAt(index: number): number {
    return this.keys[index]!;
  }

  /** The URL id of row `index` (0 ≤ index < {@link rows}). */
  idAt(index: number): number {
    return this.ids[index]!;
  }

  /**
   * At most `limit` URL ids with `bucket` in `band`, other than `exceptUrlId`, smallest first (the
   * store's index order). Empty once the index is dropped: check {@link complete}.
   */
  membersOf(band: number, bucket: number, exceptUrlId: number, limit: number): number[] {
    const members: number[] = [];
    if (this.dropped || limit <= 0) return members;
    const key = bandKey(band, bucket);
    const keys = this.keys;
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keys[middle]! < key) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < this.size && keys[index] === key && members.length < limit; index += 1) {
      const id = this.ids[index]!;
      if (id !== exceptUrlId) members.push(id);
    }
    return members;
  }

  /** Gives the rows up for good (`complete` false from now on): the store's table answers instead. */
  drop(): void {
    this.dropped = true;
    this.keys = new Float64Array(0);
    this.ids = new Uint32Array(0);
    this.size = 0;
  }

  /** Sorts a run by (key, id) in place (a run given out of order: rare, so an index sort will do). */
  private sortRun(keys: Float64Array, ids: Uint32Array): void {
    const order = Array.from({ length: keys.length }, (_, index) => index);
    order.sort((a, b) => keys[a]! - keys[b]! || ids[a]! - ids[b]!);
    const sortedKeys = Float64Array.from(order, (index) => keys[index]!);
    const sortedIds = Uint32Array.from(order, (index) => ids[index]!);
    keys.set(sortedKeys);
    ids.set(sortedIds);
  }

  /** Merges a sorted run into the held one, from the back, in place (the arrays have room for the bound: addSorted checked it); repeats kept once. */
  private merge(keys: Float64Array, ids: Uint32Array): void {
    const total = this.size + keys.length;
    const heldKeys = this.keys;
    const heldIds = this.ids;
    let held = this.size - 1;
    let added = keys.length - 1;
    let to = total - 1;
    while (added >= 0) {
      if (held >= 0 && (heldKeys[held]! > keys[added]! || (heldKeys[held] === keys[added] && heldIds[held]! > ids[added]!))) {
        heldKeys[to] = heldKeys[held]!;
        heldIds[to] = heldIds[held]!;
        held -= 1;
      } else {
        heldKeys[to] = keys[added]!;
        heldIds[to] = ids[added]!;
        added -= 1;
      }
      to -= 1;
    }
    this.size = total;
    this.removeRepeats();
  }

  /** Drops rows equal to the one before (a page fetched again adds its rows again). */
  private removeRepeats(): void {
    const keys = this.keys;
    const ids = this.ids;
    let kept = 0;
    for (let index = 0; index < this.size; index += 1) {
      if (kept > 0 && keys[kept - 1] === keys[index] && ids[kept - 1] === ids[index]) continue;
      keys[kept] = keys[index]!;
      ids[kept] = ids[index]!;
      kept += 1;
    }
    this.size = kept;
  }
}
