/**
 * A URL's outlinks in SQLite (migration 0027): its `urls` row names the range of link ids they
 * hold, `first_link_id` to `last_link_id` (both null while it has none). The writer stores a
 * fetch's links together, so the range holds only them; a range that also spans other URLs' links
 * (rows copied from elsewhere) stays correct, as every read also matches `from_url_id`.
 */
import type { Database } from 'better-sqlite3';

/** Link ids from `first` to `last`, both included. */
export interface LinkIdRange {
  first: number;
  last: number;
}

/**
 * The join from a source URL's row `src` to its link rows `l` (a rowid range, no index): `FROM
 * urls src JOIN ${URL_LINKS_JOIN} WHERE src.id = ?` reads the links out of one URL in id order.
 */
export const URL_LINKS_JOIN = 'links l ON l.id BETWEEN src.first_link_id AND src.last_link_id AND l.from_url_id = src.id';

/** Widens a URL's link range to take links written after its others: bound by {@link extendLinkRangeArgs}. */
export const EXTEND_LINK_RANGE_SQL = 'UPDATE urls SET first_link_id = min(coalesce(first_link_id, ?), ?), last_link_id = max(coalesce(last_link_id, ?), ?) WHERE id = ?';

/** The arguments of {@link EXTEND_LINK_RANGE_SQL} for URL `urlId` and `range` (each end twice: better-sqlite3 takes no numbered `?NNN` parameters). */
export function extendLinkRangeArgs(urlId: number, range: LinkIdRange): [number, number, number, number, number] {
  return [range.first, range.first, range.last, range.last, urlId];
}

/**
 * Sets every URL row's link range from the links stored (one GROUP BY pass over them): for
 * migration 0027, and for links written other than by the crawl writer (a copy from PostgreSQL,
 * test fixtures). A URL with no links gets nulls.
 * @param crawlId only that crawl's URLs; all crawls when absent
 */
export function refreshLinkRanges(db: Pick<Database, 'prepare'>, crawlId?: number): void {
  const ofCrawl = crawlId === undefined ? '' : 'AND crawl_id = ?';
  const args = crawlId === undefined ? [] : [crawlId];
  db.prepare(`UPDATE urls SET first_link_id = NULL, last_link_id = NULL WHERE first_link_id IS NOT NULL ${ofCrawl}`).run(...args);
  db.prepare(
    `UPDATE urls SET first_link_id = r.first, last_link_id = r.last
     FROM (SELECT from_url_id, MIN(id) AS first, MAX(id) AS last FROM links WHERE true ${ofCrawl} GROUP BY from_url_id) AS r
     WHERE urls.id = r.from_url_id`,
  ).run(...args);
}
