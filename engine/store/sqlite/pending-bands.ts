/**
 * LSH band rows (IIR 19.6) waiting in memory to be written to `minhash_bands` in key order. Each
 * page has one row per band, each at a random place of the table's B-tree: written with their
 * page, a commit of 32 pages dirtied about 500 leaf pages that went to the WAL whole, a rewrite of
 * a fifth of the table per commit. Gathered for {@link PENDING_BAND_ROWS} rows and written sorted,
 * each leaf page is written once per flush. Crash-safe without a write of their own: the rows
 * follow from each page's stored sketch (`pages.minhash`), so a store opened after a crash derives
 * the rows its pages lack (ContentDedupe's constructor).
 */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from './database';
import type { BandIndex } from '../../dedupe/band-index';
import { placeholderRows } from './placeholders';

/**
 * Rows held before they are written (4,096 pages' worth: 16 bands a page). Memory stays near
 * 5 MiB: the rows in three typed columns and a map of their buckets for the probes meanwhile.
 */
export const PENDING_BAND_ROWS = 65_536;

/** Rows a multi-row INSERT of a flush writes at once (the last, shorter run: one row a statement). */
const ROWS_PER_INSERT = 64;

/** A band's bucket as one map key (exact: band < 2^16, bucket a signed 32-bit integer). */
function bucketKey(band: number, bucket: number): number {
  return band * 0x1_0000_0000 + (bucket >>> 0);
}

/** Band rows of one crawl not yet in `minhash_bands`, probed like it and written to it sorted. */
export class PendingBands {
  private readonly bands = new Int32Array(PENDING_BAND_ROWS);
  private readonly buckets = new Int32Array(PENDING_BAND_ROWS);
  private readonly urlIds = new Float64Array(PENDING_BAND_ROWS);
  /** More rows than the columns hold (a recovery after a crash can add past the bound): kept here until the flush. */
  private readonly overflow: [number, number, number][] = [];
  private readonly members = new Map<number, number[]>();
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
    return this.size + this.overflow.length;
  }

  /** True when the rows waiting reached {@link PENDING_BAND_ROWS}: flush them. */
  get full(): boolean {
    return this.rows >= PENDING_BAND_ROWS;
  }

  /** Holds page `urlId`'s row of `band` (its `bucket`: a signed 32-bit integer, shingles.ts bandBuckets). */
  add(band: number, bucket: number, urlId: number): void {
    if (this.size < PENDING_BAND_ROWS) {
      this.bands[this.size] = band;
      this.buckets[this.size] = bucket;
      this.urlIds[this.size] = urlId;
      this.size += 1;
    } else this.overflow.push([band, bucket, urlId]);
    const key = bucketKey(band, bucket);
    const ids = this.members.get(key);
    if (ids) ids.push(urlId);
    else this.members.set(key, [urlId]);
  }

  /** Calls `visit` with each waiting row's band and bucket (once a row). */
  forEachBucket(visit: (band: number, bucket: number) => void): void {
    for (let index = 0; index < this.size; index += 1) visit(this.bands[index]!, this.buckets[index]!);
    for (const [band, bucket] of this.overflow) visit(band, bucket);
  }

  /** The pages waiting with `bucket` in `band`, except `exceptUrlId`, in the order they were added. */
  membersOf(band: number, bucket: number, exceptUrlId: number): number[] {
    const ids = this.members.get(bucketKey(band, bucket));
    return ids === undefined ? [] : ids.filter((id) => id !== exceptUrlId);
  }

  /**
   * Writes every row waiting, in key order (band, bucket, url id), and forgets them; the caller
   * holds the write transaction. A row already stored (a page fetched again) is skipped. Once
   * written, the rows also go, in that order, into `memory` when given (the in-memory copy of the
   * table's rows, band-index.ts).
   */
  flush(memory?: BandIndex): void {
    const rows = this.rows;
    if (rows === 0) return;
    const order = Array.from({ length: rows }, (_, index) => index);
    const band = (index: number) => (index < this.size ? this.bands[index]! : this.overflow[index - this.size]![0]);
    const bucket = (index: number) => (index < this.size ? this.buckets[index]! : this.overflow[index - this.size]![1]);
    const urlId = (index: number) => (index < this.size ? this.urlIds[index]! : this.overflow[index - this.size]![2]);
    order.sort((a, b) => band(a) - band(b) || bucket(a) - bucket(b) || urlId(a) - urlId(b));
    const values: number[] = new Array<number>(ROWS_PER_INSERT * 4);
    let next = 0;
    for (; next + ROWS_PER_INSERT <= rows; next += ROWS_PER_INSERT) {
      for (let row = 0; row < ROWS_PER_INSERT; row += 1) {
        const index = order[next + row]!;
        values[row * 4] = this.crawlId;
        values[row * 4 + 1] = band(index);
        values[row * 4 + 2] = bucket(index);
        values[row * 4 + 3] = urlId(index);
      }
      // As arguments, not one array (see CrawlRepository.insertLinks: better-sqlite3 binds those faster).
      this.insertMany.run(...values);
    }
    for (; next < rows; next += 1) {
      const index = order[next]!;
      this.insertOne.run(this.crawlId, band(index), bucket(index), urlId(index));
    }
    memory?.addSorted(rows, (at) => [band(order[at]!), bucket(order[at]!), urlId(order[at]!)]);
    this.size = 0;
    this.overflow.length = 0;
    this.members.clear();
  }
}
