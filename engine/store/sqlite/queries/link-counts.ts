/** Inlinks and outlinks per URL, kept in link_counts by counting only the links stored since the last count. */
import type { Statement } from 'better-sqlite3';
import type { WritableDB } from '../database';
import { isLockBusy } from '../storage-errors';

/**
 * Brings a crawl's `link_counts` (migration 0011) up to date: aggregates the links rows above the
 * last id counted, adds them to each URL's inlinks (to_url_id, refused_by null) and outlinks
 * (from_url_id, every link), and records the new last id, in one transaction. Links rows are
 * append-only, so the counts equal a full count at every refresh; a refresh with nothing new is
 * two index lookups. The first refresh of an older database counts every link it holds, once.
 */
export class LinkCounts {
  private readonly lastCounted: Statement;
  private readonly newestLink: Statement;
  private readonly addInlinks: Statement;
  private readonly addOutlinks: Statement;
  private readonly recordProgress: Statement;

  constructor(private readonly db: WritableDB) {
    this.lastCounted = db.prepare(`SELECT last_link_id FROM link_counts_progress WHERE crawl_id = ?`).pluck();
    this.newestLink = db.prepare(`SELECT MAX(id) FROM links`).pluck();
    this.addInlinks = db.prepare(
      `INSERT INTO link_counts (url_id, crawl_id, inlinks)
       SELECT to_url_id, crawl_id, COUNT(*) FROM links
       WHERE id > ? AND id <= ? AND crawl_id = ? AND to_url_id IS NOT NULL AND refused_by IS NULL
       GROUP BY to_url_id
       ON CONFLICT (url_id) DO UPDATE SET inlinks = inlinks + excluded.inlinks`,
    );
    this.addOutlinks = db.prepare(
      `INSERT INTO link_counts (url_id, crawl_id, outlinks)
       SELECT from_url_id, crawl_id, COUNT(*) FROM links
       WHERE id > ? AND id <= ? AND crawl_id = ?
       GROUP BY from_url_id
       ON CONFLICT (url_id) DO UPDATE SET outlinks = outlinks + excluded.outlinks`,
    );
    this.recordProgress = db.prepare(
      `INSERT INTO link_counts_progress (crawl_id, last_link_id) VALUES (?, ?) ON CONFLICT (crawl_id) DO UPDATE SET last_link_id = excluded.last_link_id`,
    );
  }

  /**
   * {@link refresh} without waiting for the write lock: when another connection holds it (a crawl
   * committing from another process), nothing is counted and the counts lag until the next call.
   * The connection's busy timeout is set back afterwards.
   * @returns how many links rows were newly looked at, or null when the lock was busy
   */
  tryRefresh(crawlId: number): number | null {
    const busyTimeoutMs = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      return this.refresh(crawlId);
    } catch (error) {
      if (isLockBusy(error)) return null;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
  }

  /**
   * Counts the crawl's links stored since the last refresh.
   * @returns how many links rows (of every crawl) were newly looked at; 0 when the counts were current
   * @throws the driver's error when the write fails (SQLITE_BUSY: another process holds the write lock)
   */
  refresh(crawlId: number): number {
    return this.db
      .transaction(() => {
        const last = (this.lastCounted.get(crawlId) as number | undefined) ?? 0;
        const newest = (this.newestLink.get() as number | null) ?? 0;
        if (newest <= last) return 0;
        this.addInlinks.run(last, newest, crawlId);
        this.addOutlinks.run(last, newest, crawlId);
        this.recordProgress.run(crawlId, newest);
        return newest - last;
      })
      .immediate();
  }
}
