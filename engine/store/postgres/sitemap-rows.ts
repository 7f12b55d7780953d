/**
 * The sitemaps a crawl read and the URLs each listed, in PostgreSQL (issue 13), as
 * store/sqlite/sitemap-rows.ts writes them in SQLite: the write half, inside the commit batch's
 * transaction, and the resume read.
 */
import type { Pool, PoolClient } from 'pg';
import type { SitemapWrite } from '../ports';

/** Writes one crawl's sitemap rows and their listings; callers group the calls in transactions (the commit batch's). */
export class PostgresSitemapRows {
  constructor(private readonly crawlId: number) {}

  /**
   * Writes one sitemap's row and a listing row per URL it listed, in one statement. A sitemap read
   * again (a resumed crawl that had not stored it whole, or another process) replaces its row,
   * keeping its id; its parent is the crawl's sitemap row with `parentUrl`, written before (null
   * when none). A URL listed twice keeps its last `<lastmod>` and spelling, as in SQLite.
   * @param idOf the URL id of a normalized key: a candidate of the same batch or a known URL (the
   *   writer resolves every key of the batch first); it throws for an unknown key
   */
  async write(client: PoolClient, sitemap: SitemapWrite, idOf: (key: string) => number): Promise<void> {
    const listed = new Map<number, { lastmod: string | null; listedAs: string | null }>();
    for (const entry of sitemap.listed) {
      const urlId = idOf(entry.key);
      // Re-inserted so the map's order is each URL's last listing, as the SQLite upserts leave it.
      listed.delete(urlId);
      listed.set(urlId, { lastmod: entry.lastmod, listedAs: entry.listedAs });
    }
    await client.query(
      `WITH sitemap AS (
         INSERT INTO sitemaps (crawl_id, url, found_via, parent_id, kind, http_status, gzipped, bytes, entries, entries_over_cap, urls_refused, error_code, error_message, fetch_ms, fetched_at_ms)
         VALUES ($1, $2, $3, (SELECT id FROM sitemaps WHERE crawl_id = $1 AND url = $4), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (crawl_id, url) DO UPDATE SET found_via = EXCLUDED.found_via, parent_id = EXCLUDED.parent_id, kind = EXCLUDED.kind, http_status = EXCLUDED.http_status,
           gzipped = EXCLUDED.gzipped, bytes = EXCLUDED.bytes, entries = EXCLUDED.entries, entries_over_cap = EXCLUDED.entries_over_cap, urls_refused = EXCLUDED.urls_refused,
           error_code = EXCLUDED.error_code, error_message = EXCLUDED.error_message, fetch_ms = EXCLUDED.fetch_ms, fetched_at_ms = EXCLUDED.fetched_at_ms
         RETURNING id
       )
       INSERT INTO sitemap_urls (url_id, sitemap_id, crawl_id, lastmod, listed_as)
       SELECT l.url_id, sitemap.id, $1, l.lastmod, l.listed_as FROM sitemap, unnest($16::bigint[], $17::text[], $18::text[]) AS l(url_id, lastmod, listed_as)
       ON CONFLICT (url_id, sitemap_id) DO UPDATE SET lastmod = EXCLUDED.lastmod, listed_as = EXCLUDED.listed_as`,
      [
        this.crawlId,
        sitemap.url,
        sitemap.foundVia,
        sitemap.parentUrl,
        sitemap.kind,
        sitemap.httpStatus,
        sitemap.gzipped ? 1 : 0,
        sitemap.bytes,
        sitemap.entries,
        sitemap.entriesOverCap,
        sitemap.urlsRefused,
        sitemap.error?.code ?? null,
        sitemap.error?.message ?? null,
        sitemap.fetchMs,
        sitemap.fetchedAtMs,
        [...listed.keys()],
        [...listed.values()].map((entry) => entry.lastmod),
        [...listed.values()].map((entry) => entry.listedAs),
      ],
    );
  }
}

/** URLs of the sitemaps crawl `crawlId` has stored, in the order first stored (a resumed crawl does not fetch them again). */
export async function storedSitemapUrls(db: Pool | PoolClient, crawlId: number): Promise<string[]> {
  const { rows } = await db.query<{ url: string }>(`SELECT url FROM sitemaps WHERE crawl_id = $1 ORDER BY id`, [crawlId]);
  return rows.map((row) => row.url);
}
