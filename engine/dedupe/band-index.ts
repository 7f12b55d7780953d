/**
 * A crawl's LSH band rows (IIR 19.6) in memory, for the near-duplicate probes of the content-seen
 * test: each row (band, bucket, URL id) in one sorted run of typed arrays, so a probe is a binary
 * search and a read of the bucket's members, in the order the store's index keeps them (band,
 * bucket, URL id). A SQLite probe of `minhash_bands` cost a B-tree seek and its page reads on the
 * writer thread: 12–13% of that thread at 20,200 and at 100,000 synthetic pages (CPU profiles,
 * 2026-11-24), while the index answers from {@link BAND_INDEX_ROW_BYTES} bytes a row.
 *
 * The run is cut into one segment per band (a crawl has LSH_BANDS of them), so a row keeps only its
 * bucket (int32) and URL id (uint32): 8 bytes, where a (band, bucket) key as a float64 made it 12
 * (19 against 13 MB at 100,000 synthetic pages).
 *
 * Bounded by bytes ({@link BAND_INDEX_MAX_BYTES}): a crawl that grows past it drops the index for
 * good (`complete` false) and its store goes back to probing the table, with the same answers.
 */

/** Bytes the sorted run may take: 32 MiB, about 4.2M rows (16 a page: some 260,000 pages). */
export const BAND_INDEX_MAX_BYTES = 32 * 1024 * 1024;

/** Bytes a row takes: its bucket (int32) and URL id (uint32). */
export const BAND_INDEX_ROW_BYTES = 8;

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

/** (bucket, id) of one row before (bucket2, id2) of another, in the table's order within a band. */
function rowBefore(bucket: number, id: number, bucket2: number, id2: number): boolean {
  return bucket < bucket2 || (bucket === bucket2 && id < id2);
}

/**
 * Band rows of one crawl, sorted by (band, bucket, URL id); rows are added as sorted runs
 * (a flush of the pending rows, or the stored rows when a run opens) and merged in linear time.
 */
export class BandIndex {
  private buckets = new Int32Array(0);
  private ids = new Uint32Array(0);
  private size = 0;
  /** The bands held, ascending, and where each one's rows start (a band's rows end where the next band's start, the last's at `size`). */
  private bands: number[] = [];
  private starts: number[] = [];
  private dropped = false;

  /**
   * Allocates the arrays at the bound, once: the OS backs only the pages the rows reach (zeroed
   * memory is mapped on first write), and a merge never copies the run into grown arrays. Grown by
   * a quarter at a time, at 100,000 synthetic pages (1.6M rows, 19 MB) each growth held the old and
   * the new arrays together, up to 43 MB, at the writer's busiest moment.
   * @param maxBytes bytes the rows may take ({@link BAND_INDEX_MAX_BYTES}); 0 keeps no index
   */
  constructor(private readonly maxBytes = BAND_INDEX_MAX_BYTES) {
    if (maxBytes < BAND_INDEX_ROW_BYTES) {
      this.drop();
      return;
    }
    const capacity = Math.floor(maxBytes / BAND_INDEX_ROW_BYTES);
    this.buckets = new Int32Array(capacity);
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

  /** Bytes the arrays reserve (their capacity, the bound; the OS backs about BAND_INDEX_ROW_BYTES a row held), 0 once dropped. */
  get bytes(): number {
    return this.buckets.byteLength + this.ids.byteLength;
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
    if ((this.size + count) * BAND_INDEX_ROW_BYTES > this.maxBytes) {
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
    if ((this.size + keys.length) * BAND_INDEX_ROW_BYTES > this.maxBytes) return false;
    for (let index = 0; index < ids.length; index += 1) if (ids[index]! > MAX_URL_ID || ids[index]! < 0) return false;
    return true;
  }

  /** The {@link bandKey} of row `index` (0 ≤ index < {@link rows}, in (band, bucket, URL id) order). */
  keyAt(index: number): number {
    let segment = this.starts.length - 1;
    while (segment > 0 && this.starts[segment]! > index) segment -= 1;
    return bandKey(this.bands[segment]!, this.buckets[index]!);
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
    const segment = this.bands.indexOf(band);
    if (segment === -1) return members;
    const end = segment + 1 < this.starts.length ? this.starts[segment + 1]! : this.size;
    const buckets = this.buckets;
    let low = this.starts[segment]!;
    let high = end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (buckets[middle]! < bucket) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < end && buckets[index] === bucket && members.length < limit; index += 1) {
      const id = this.ids[index]!;
      if (id !== exceptUrlId) members.push(id);
    }
    return members;
  }

  /** Gives the rows up for good (`complete` false from now on): the store's table answers instead. */
  drop(): void {
    this.dropped = true;
    this.buckets = new Int32Array(0);
    this.ids = new Uint32Array(0);
    this.size = 0;
    this.bands = [];
    this.starts = [];
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

  /**
   * Merges a sorted run into the held one band by band, from the back, in place (the arrays have
   * room for the bound: addSortedKeys checked it; every row lands at or after where it was), then
   * drops repeats.
   */
  private merge(keys: Float64Array, ids: Uint32Array): void {
    const count = keys.length;
    // The run's bands, ascending, and where each starts in it.
    const runBands: number[] = [];
    const runStarts: number[] = [];
    const runBuckets = new Int32Array(count);
    for (let index = 0; index < count; index += 1) {
      const band = bandOfKey(keys[index]!);
      runBuckets[index] = bucketOfKey(keys[index]!);
      if (runBands.length === 0 || runBands[runBands.length - 1] !== band) {
        runBands.push(band);
        runStarts.push(index);
      }
    }
    const allBands = [...new Set([...this.bands, ...runBands])].sort((a, b) => a - b);
    const buckets = this.buckets;
    const heldIds = this.ids;
    let held = this.size - 1;
    let added = count - 1;
    let to = this.size + count - 1;
    const starts = new Array<number>(allBands.length);
    for (let at = allBands.length - 1; at >= 0; at -= 1) {
      const band = allBands[at]!;
      const heldSegment = this.bands.indexOf(band);
      const heldStart = heldSegment === -1 ? held + 1 : this.starts[heldSegment]!;
      const runSegment = runBands.indexOf(band);
      const runStart = runSegment === -1 ? added + 1 : runStarts[runSegment]!;
      while (added >= runStart) {
        if (held >= heldStart && rowBefore(runBuckets[added]!, ids[added]!, buckets[held]!, heldIds[held]!)) {
          buckets[to] = buckets[held]!;
          heldIds[to] = heldIds[held]!;
          held -= 1;
        } else {
          buckets[to] = runBuckets[added]!;
          heldIds[to] = ids[added]!;
          added -= 1;
        }
        to -= 1;
      }
      // The band's held rows left sit before every row written: moved down as a block.
      while (held >= heldStart) {
        buckets[to] = buckets[held]!;
        heldIds[to] = heldIds[held]!;
        held -= 1;
        to -= 1;
      }
      starts[at] = to + 1;
    }
    this.bands = allBands;
    this.starts = starts;
    this.size += count;
    this.removeRepeats();
  }

  /** Drops rows equal to the one before in their band (a page fetched again adds its rows again), each band's start moving with them. */
  private removeRepeats(): void {
    const buckets = this.buckets;
    const ids = this.ids;
    let kept = 0;
    for (let segment = 0; segment < this.bands.length; segment += 1) {
      const start = this.starts[segment]!;
      const end = segment + 1 < this.starts.length ? this.starts[segment + 1]! : this.size;
      this.starts[segment] = kept;
      const first = kept;
      for (let index = start; index < end; index += 1) {
        if (kept > first && buckets[kept - 1] === buckets[index] && ids[kept - 1] === ids[index]) continue;
        buckets[kept] = buckets[index]!;
        ids[kept] = ids[index]!;
        kept += 1;
      }
    }
    this.size = kept;
  }
}
