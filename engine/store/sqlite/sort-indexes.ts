/**
 * The Pages table's sort indexes that are built on demand (issue 15 part 3): an index over a column
 * only the Pages table sorts by costs a B-tree insert on every settled URL or stored page of every
 * crawl, sorted or not. Migration 0016 dropped them; the first sort by such a column builds its
 * index (CREATE INDEX IF NOT EXISTS, one pass over the crawl: about 1 s per 1,000,000 rows), and
 * from then on the crawl keeps it. A read-only handle cannot build one: its query sorts instead.
 */
import type { PageColumn } from '../../../shared/types/pages';
import type { WritableDB } from './database';
import { isLockBusy } from './storage-errors';

/**
 * The URL states that make a row of the Pages table: the WHERE of the partial sort indexes, and
 * (with the table alias) of every Pages query (page-queries.ts), so SQLite may use those indexes.
 * The same text as migration 0011's (a shipped migration keeps its own copy).
 */
export const PAGES_ROW_STATES = `state IN ('done', 'error', 'blocked')`;

/**
 * Each lazily built sort index by the Pages column it serves (the definitions migration 0011 made
 * eagerly, same names, so a database that still has one keeps using it). Even the default sort's
 * (url) is built when the Pages table is first read: a crawl nobody looks at in the Pages table
 * (the CLI, the frontier benchmark) never pays a random-position insert per settled URL for it.
 * Absent: inlinks, outlinks (link_counts, maintained only when the Pages table is read).
 */
export const LAZY_SORT_INDEXES: Readonly<Partial<Record<PageColumn, LazyIndex>>> = {
  url: { name: 'urls_pages_by_url', sql: `ON urls (crawl_id, url) WHERE ${PAGES_ROW_STATES}` },
  status: { name: 'urls_pages_by_status', sql: `ON urls (crawl_id, http_status) WHERE ${PAGES_ROW_STATES}` },
  depth: { name: 'urls_pages_by_depth', sql: `ON urls (crawl_id, depth) WHERE ${PAGES_ROW_STATES}` },
  fetchedAtMs: { name: 'urls_pages_by_fetched', sql: `ON urls (crawl_id, fetched_at_ms) WHERE ${PAGES_ROW_STATES}` },
  contentType: { name: 'pages_by_content_type', sql: 'ON pages (crawl_id, content_type)' },
  title: { name: 'pages_by_title', sql: 'ON pages (crawl_id, title)' },
  metaDescription: { name: 'pages_by_meta_description', sql: 'ON pages (crawl_id, meta_description)' },
  h1: { name: 'pages_by_h1', sql: 'ON pages (crawl_id, h1)' },
  canonical: { name: 'pages_by_canonical', sql: 'ON pages (crawl_id, canonical_url)' },
  indexability: { name: 'pages_by_indexability', sql: 'ON pages (crawl_id, indexability)' },
  sizeBytes: { name: 'pages_by_size', sql: 'ON pages (crawl_id, body_bytes)' },
  responseMs: { name: 'pages_by_response_time', sql: 'ON pages (crawl_id, fetch_ms)' },
};

/** An index built on demand: its name and its definition after `CREATE INDEX <name>`. */
export interface LazyIndex {
  name: string;
  sql: string;
}

/**
 * The site tree's index: an expand reads one host's URL range under a directory (migration 0014's
 * definition), built on the first expand below a host instead of on every enqueue.
 */
export const SITE_TREE_INDEX: LazyIndex = { name: 'urls_by_host_url', sql: 'ON urls (crawl_id, host, url)' };

/** The Frontier view's host filter in id order (migration 0005's definition), built on the first filter by host instead of on every enqueue. */
export const FRONTIER_HOST_INDEX: LazyIndex = { name: 'urls_by_host_id', sql: 'ON urls (crawl_id, host, id)' };

/**
 * The inlinks index: links by target (migration 0016's definition), read by the URL inspector's
 * links in and redirect sources and by an accepted DUST rule's repoint. Each link's target is at a
 * random place in it, so while a crawl runs it costs the writer a random B-tree insert per link:
 * the store-writer thread drops it when a run opens the file and builds it again, in one sorted
 * pass, when the run closes (writer-thread.ts); meanwhile those reads scan the links table (the
 * redirect sources use migration 0022's partial index). Measured (2 cores, one run
 * each): the 20,200-page synthetic crawl took 62.9 and 71.3 s with the index kept, 60.1 and 54.6 s
 * dropped and rebuilt on close; the 102,500-page one 603 s before, 533 s dropped and rebuilt (456 s
 * in a run that never built it: the writer thread 318 → 230 CPU-s, 8.4 → 7.3 KB a page). Building
 * it over those 8.35M links took 10.7 s; with it the database is 8.3 KB a page.
 */
export const INLINKS_INDEX: LazyIndex = { name: 'links_by_to', sql: 'ON links (crawl_id, to_url_id)' };

/** What building a sort index came to. */
export type SortIndexOutcome = 'built' | 'present' | 'not-needed' | 'busy';

/**
 * Builds the Pages table's sort indexes on the first sort by their column, through a write handle.
 * It never waits for the write lock: while another process commits a crawl to the file the build
 * is skipped (`busy`), the query sorts without it, and the next sort tries again.
 */
export class SortIndexes {
  private readonly present = new Set<string>();

  constructor(private readonly db: WritableDB) {}

  /**
   * Makes sure the index serving a sort by `column` exists.
   * @returns `built` (built now), `present` (there already), `not-needed` (the column's index is
   *   always there), `busy` (the write lock was held elsewhere: not built)
   * @throws the driver's error for any failure but a busy lock (SQLITE_FULL, SQLITE_READONLY …)
   */
  ensure(column: PageColumn): SortIndexOutcome {
    const index = LAZY_SORT_INDEXES[column];
    return index === undefined ? 'not-needed' : this.ensureIndex(index);
  }

  /**
   * Makes sure `index` exists (SITE_TREE_INDEX, FRONTIER_HOST_INDEX, a sort index).
   * @returns `built`, `present` or `busy` (not built: the write lock was held elsewhere)
   * @throws the driver's error for any failure but a busy lock
   */
  ensureIndex(index: LazyIndex): SortIndexOutcome {
    if (this.present.has(index.name)) return 'present';
    const exists = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(index.name) !== undefined;
    if (exists) {
      this.present.add(index.name);
      return 'present';
    }
    const busyTimeoutMs = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${index.name} ${index.sql}`);
    } catch (error) {
      if (isLockBusy(error)) return 'busy';
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
    this.present.add(index.name);
    return 'built';
  }
}
