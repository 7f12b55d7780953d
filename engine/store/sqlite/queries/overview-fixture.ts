/** Test helper: a generated crawl with URLs in every state and status class, and their pages (for the Overview and site-tree query tests). */
import type { WritableDB } from '../database';
import { LINK_KIND_CODES } from '../link-codes';
import { refreshLinkRanges } from '../link-ranges';

/** One generated URL: its frontier row and, when `page` is given, its page row. */
export interface OverviewTestUrl {
  url: string;
  state?: 'pending' | 'in_flight' | 'done' | 'error';
  depth?: number;
  /** Index (in the list) of the URL it was discovered from. */
  from?: number;
  status?: number | null;
  errorCode?: string | null;
  page?: { fetchMs: number; fetchedAtMs: number; contentType?: string | null; indexability?: string | null };
}

/**
 * Inserts a crawl with these URLs (ids in list order) and their pages; links from each URL's
 * `from` to it (kind `a`, anchor text `to <path>`).
 * @returns the crawl id and the URL ids in list order
 */
export function insertOverviewCrawl(db: WritableDB, urls: readonly OverviewTestUrl[]): { crawlId: number; ids: number[] } {
  const crawlId = Number(db.prepare(`INSERT INTO crawls (seeds_json, settings_json, status, created_at_ms) VALUES ('[]', '{}', 'stopped', 1)`).run().lastInsertRowid);
  const insertUrl = db.prepare(
    `INSERT INTO urls (crawl_id, normalized_key, normalized, url, host, state, depth, priority, discovered_from, enqueued_at_ms, http_status, error_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 1, ?, ?)`,
  );
  const insertPage = db.prepare(
    `INSERT INTO pages (url_id, crawl_id, final_url, http_status, content_type, body_bytes, fetch_ms, fetched_at_ms, indexability) VALUES (?, ?, ?, ?, ?, 100, ?, ?, ?)`,
  );
  const insertLink = db.prepare(`INSERT INTO links (crawl_id, from_url_id, raw_url, to_url_id, kind, anchor_text) VALUES (?, ?, ?, ?, ${LINK_KIND_CODES.a}, ?)`);
  const ids: number[] = [];
  db.transaction(() => {
    for (const row of urls) {
      const state = row.state ?? 'done';
      const status = row.status === undefined ? (state === 'done' ? 200 : null) : row.status;
      const from = row.from === undefined ? null : ids[row.from]!;
      const id = Number(
        insertUrl.run(crawlId, `${crawlId}:${row.url}`, row.url, row.url, new URL(row.url).hostname, state, row.depth ?? 0, from, status, row.errorCode ?? null).lastInsertRowid,
      );
      ids.push(id);
      if (row.page) insertPage.run(id, crawlId, row.url, status ?? 0, row.page.contentType ?? null, row.page.fetchMs, row.page.fetchedAtMs, row.page.indexability ?? null);
      if (from !== null) insertLink.run(crawlId, from, row.url, id, `to ${new URL(row.url).pathname}`);
    }
    refreshLinkRanges(db, crawlId);
  })();
  return { crawlId, ids };
}
