/**
 * LSH band rows (IIR 19.6) of the pages recorded since the last flush, waiting in memory; a flush
 * moves them, in key order, into the in-memory band index (band-index.ts) while it holds every row
 * of the crawl, else into `minhash_bands`. Each page has one row per band, each at a random place
 * of the table's B-tree: written with their page, a commit of 32 pages dirtied about 500 leaf pages
 * that went to the WAL whole; gathered for {@link PENDING_BAND_ROWS} rows and written sorted, each
 * leaf page is written once per flush, and while the index holds them they are not written at all.
 * Crash-safe without a write of their own: the rows follow from each page's stored sketch
 * (`pages.minhash`), so a store opened later derives the rows its pages lack (ContentDedupe's constructor).
 *
 * The rows sit in typed columns, each bucket's rows chained in the order they came through an
 * open-addressing table of buckets (no object a row or a bucket): on a replay of the 100,000-page
 * synthetic crawl's sketches (16 rows a page, 1.6M in all) a Map of bucket → array of URL ids,
 * and a flush sorting through per-row accessor closures, took 4.2 of the content-seen test's 10.7 s.
 */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import { bandKey, bandOfKey, bucketOfKey, type BandIndex } from '../../dedupe/band-index';
import { placeholderRows } from './placeholders';

/**
 * Rows held before they are written (4,096 pages' worth: 16 bands a page). Memory stays near
 * 4 MiB: the rows in four typed columns and the table of their buckets. More rows may be added
 * before the flush (a recovery after a crash derives every unindexed page's rows at once): the
 * columns and the table double then.
 */
export const PENDING_BAND_ROWS = 65_536;

/** Rows a multi-row INSERT of a flush writes at once (the last, shorter run: one row a statement). */
const ROWS_PER_INSERT = 64;

/** No row / an empty table cell. */
const NONE = -1;

/** Band rows of one crawl recorded since the last flush, probed like the index and the table (see the module comment). */
export class PendingBands {
  private capacity = PENDING_BAND_ROWS;
  private bands = new Int32Array(PENDING_BAND_ROWS);
  private buckets = new Int32Array(PENDING_BAND_ROWS);
  private urlIds = new Float64Array(PENDING_BAND_ROWS);
  /** Per row: the next row of its bucket (NONE: the last). */
  private nextRow = new Int32Array(PENDING_BAND_ROWS);
  /**
   * The buckets held, by linear probing (at most half full): a cell's band and bucket, and the
   * first and last row of its chain; `cellFirst` NONE marks an empty cell.
   */
  private cellBand = new Int32Array(2 * PENDING_BAND_ROWS);
  private cellBucket = new Int32Array(2 * PENDING_BAND_ROWS);
  private cellFirst = new Int32Array(2 * PENDING_BAND_ROWS).fill(NONE);
  private cellLast = new Int32Array(2 * PENDING_BAND_ROWS);
  private size = 0;
  private readonly insertMany: Statement;
  private readonly insertOne: Statement;

  constructor(
    db: WritableDB,
    private readonly crawlId: number,
  ) {
    this.insertMany = db.prepare(`INSERT OR IGNORE INTO minhash_bands (crawl_id, band, bucket, url_id) VALUES ${placeholderRows(ROWS_PER_INSERT, 4)}`);
    this.insertOne = db.prepare(`INSERT OR IGNORE INTO minhash_bands (crawl_id, band, bucket, url_id) VALUES (?, ?, ?, ?)`);
  }

  /** Rows waiting. */
  get rows(): number {
    return this.size;
  }

  /** True when the rows waiting reached {@link PENDING_BAND_ROWS}: flush them. */
  get full(): boolean {
    return this.size >= PENDING_BAND_ROWS;
  }

  /** Holds page `urlId`'s row of `band` (its `bucket`: a signed 32-bit integer, shingles.ts bandBuckets). */
  add(band: number, bucket: number, urlId: number): void {
    if (this.size === this.capacity) this.grow();
    const row = this.size;
    this.size += 1;
    this.bands[row] = band;
    this.buckets[row] = bucket;
    this.urlIds[row] = urlId;
    this.nextRow[row] = NONE;
    const cell = this.cellOf(band, bucket);
    if (this.cellFirst[cell] === NONE) {
      this.cellBand[cell] = band;
      this.cellBucket[cell] = bucket;
      this.cellFirst[cell] = row;
    } else this.nextRow[this.cellLast[cell]!] = row;
    this.cellLast[cell] = row;
  }

  /** Calls `visit` with each waiting row's band and bucket (once a row). */
  forEachBucket(visit: (band: number, bucket: number) => void): void {
    for (let row = 0; row < this.size; row += 1) visit(this.bands[row]!, this.buckets[row]!);
  }

  /** The pages waiting with `bucket` in `band`, except `exceptUrlId`, in the order they were added. */
  membersOf(band: number, bucket: number, exceptUrlId: number): number[] {
    const members: number[] = [];
    if (this.size === 0) return members;
    for (let row = this.cellFirst[this.cellOf(band, bucket)]!; row !== NONE; row = this.nextRow[row]!) {
      const id = this.urlIds[row]!;
      if (id !== exceptUrlId) members.push(id);
    }
    return members;
  }

  /**
   * Moves every row waiting out, in key order (band, bucket, URL id), and forgets them: into
   * `memory` while it holds every band row of the crawl (and nothing is written: the rows follow
   * from the pages' stored sketches, from which a store opened later derives them again), else into
   * `minhash_bands`, skipping a row already stored (a page fetched again). When the rows would
   * outgrow `memory`, its own rows are written to the table first and it is dropped: from then on
   * the table holds every row. The caller holds the write transaction.
   */
  flush(memory: BandIndex): void {
    const rows = this.size;
    if (rows === 0) return;
    // (band, bucket) as one number in the table's order (band-index.ts bandKey), so the sort reads
    // two typed arrays and calls nothing.
    const keys = new Float64Array(rows);
    for (let row = 0; row < rows; row += 1) keys[row] = bandKey(this.bands[row]!, this.buckets[row]!);
    const urlIds = this.urlIds;
    const order = new Uint32Array(rows);
    for (let row = 0; row < rows; row += 1) order[row] = row;
    order.sort((a, b) => keys[a]! - keys[b]! || urlIds[a]! - urlIds[b]!);
    const sortedKeys = new Float64Array(rows);
    const sortedIds = new Float64Array(rows);
    for (let at = 0; at < rows; at += 1) {
      sortedKeys[at] = keys[order[at]!]!;
      sortedIds[at] = urlIds[order[at]!]!;
    }
    this.size = 0;
    this.cellFirst.fill(NONE);
    if (memory.accepts(sortedKeys, sortedIds)) {
      memory.addSortedKeys(sortedKeys, sortedIds);
      return;
    }
    if (memory.complete) {
      this.insertRows(memory.rows, (at) => memory.keyAt(at), (at) => memory.idAt(at));
      memory.drop();
    }
    this.insertRows(rows, (at) => sortedKeys[at]!, (at) => sortedIds[at]!);
  }

  /** Inserts `rows` rows into `minhash_bands`, row i being (band-index.ts bandKey `keyAt(i)`, URL id `idAt(i)`). */
  private insertRows(rows: number, keyAt: (index: number) => number, idAt: (index: number) => number): void {
    const values: number[] = new Array<number>(ROWS_PER_INSERT * 4);
    let next = 0;
    for (; next + ROWS_PER_INSERT <= rows; next += ROWS_PER_INSERT) {
      for (let row = 0; row < ROWS_PER_INSERT; row += 1) {
        const key = keyAt(next + row);
        values[row * 4] = this.crawlId;
        values[row * 4 + 1] = bandOfKey(key);
        values[row * 4 + 2] = bucketOfKey(key);
        values[row * 4 + 3] = idAt(next + row);
      }
      // As arguments, not one array (see CrawlRepository.insertLinks: better-sqlite3 binds those faster).
      this.insertMany.run(...values);
    }
    for (; next < rows; next += 1) this.insertOne.run(this.crawlId, bandOfKey(keyAt(next)), bucketOfKey(keyAt(next)), idAt(next));
  }

  /** The table cell of (band, bucket): its own, or the empty one where it would go. */
  private cellOf(band: number, bucket: number): number {
    const mask = this.cellFirst.length - 1;
    // Buckets are well-mixed hashes already (shingles.ts bandBuckets); the band moves them apart.
    let cell = (bucket ^ Math.imul(band + 1, 0x9e3779b1)) & mask;
    while (this.cellFirst[cell] !== NONE && (this.cellBand[cell] !== band || this.cellBucket[cell] !== bucket)) cell = (cell + 1) & mask;
    return cell;
  }

  /** Doubles the columns and the table (more rows than PENDING_BAND_ROWS before a flush), chaining the rows again. */
  private grow(): void {
    const rows = this.size;
    const bands = this.bands;
    const buckets = this.buckets;
    const urlIds = this.urlIds;
    this.capacity *= 2;
    this.bands = new Int32Array(this.capacity);
    this.buckets = new Int32Array(this.capacity);
    this.urlIds = new Float64Array(this.capacity);
    this.nextRow = new Int32Array(this.capacity);
    this.cellBand = new Int32Array(2 * this.capacity);
    this.cellBucket = new Int32Array(2 * this.capacity);
    this.cellFirst = new Int32Array(2 * this.capacity).fill(NONE);
    this.cellLast = new Int32Array(2 * this.capacity);
    this.size = 0;
    for (let row = 0; row < rows; row += 1) this.add(bands[row]!, buckets[row]!, urlIds[row]!);
  }
}
